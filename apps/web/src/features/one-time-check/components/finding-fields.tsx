import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { findingLines } from '@pledgewatch/contract';

export function FindingFields({ payload }: { payload: Record<string, unknown> }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(160px, max-content) 1fr' },
        columnGap: 2,
        rowGap: { xs: 0, sm: 0.5 },
        m: 0,
      }}
    >
      {findingLines(payload).map((line) => (
        <Box key={line.label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {line.label}
          </Typography>
          <Typography
            component="dd"
            variant="body2"
            sx={{ m: 0, mb: { xs: 1, sm: 0 }, wordBreak: 'break-word' }}
          >
            {line.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
