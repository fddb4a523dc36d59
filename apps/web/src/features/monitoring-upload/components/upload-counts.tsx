import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { UploadCounts as Counts } from '@pledgewatch/contract';
import { texts } from '@/features/monitoring-upload/texts';
import { formatNumber } from '@/lib/format';

const t = texts.monitoringUpload.counts;

/** Row counts as tiles; `stage` decides whether «accepted» means «to add» or «added». */
export function UploadCounts({ counts, stage }: { counts: Counts; stage: 'preview' | 'result' }) {
  const tiles: { key: string; label: string; value: number; color?: string }[] = [
    { key: 'rows', label: t.rows, value: counts.rows },
    {
      key: 'accepted',
      label: stage === 'preview' ? t.toAdd : t.added,
      value: counts.accepted,
      color: 'success.main',
    },
    ...(counts.restored > 0
      ? [{ key: 'restored', label: t.restored, value: counts.restored, color: 'success.main' }]
      : []),
    { key: 'duplicates', label: t.duplicates, value: counts.duplicates, color: 'info.main' },
    {
      key: 'rejected',
      label: t.rejected,
      value: counts.rejected,
      color: counts.rejected > 0 ? 'error.main' : undefined,
    },
  ];
  return (
    <Box
      component="dl"
      data-testid="upload-counts"
      sx={{
        m: 0,
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(auto-fit, minmax(140px, 1fr))' },
      }}
    >
      {tiles.map((tile) => (
        <Box
          key={tile.key}
          data-count={tile.key}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
        >
          <Typography component="dt" variant="body2" color="text.secondary">
            {tile.label}
          </Typography>
          <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 600, color: tile.color }}>
            {formatNumber(tile.value)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
