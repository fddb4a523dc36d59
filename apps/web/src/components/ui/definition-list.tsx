import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export type DefinitionLine = { label: string; value: string };

/**
 * Label–value lines as a `<dl>` grid: the VIN decoding (upload form, one-time check, its results
 * and printable document). `dense` is the compact variant of the upload form.
 */
export function DefinitionList({ lines, dense = false }: { lines: DefinitionLine[]; dense?: boolean }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: dense ? 'auto 1fr' : 'minmax(140px, max-content) 1fr',
        columnGap: 2,
        rowGap: dense ? 0.25 : 0.5,
        m: 0,
      }}
    >
      {lines.map((line) => (
        <Box key={line.label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {line.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
            {line.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
