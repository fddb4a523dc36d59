import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SOURCE_IMPORT_PHASE_LABELS, type Source } from '@pledgewatch/contract';
import { texts } from '@/features/checks/texts';
import { formatBytes, formatNumber } from '@/lib/format';

const t = texts.checks.sources;

/** A version being imported in the background: its phase, bytes of the file and rows read so far. */
export function SourceImportProgress({ importing }: { importing: NonNullable<Source['importing']> }) {
  const percent =
    importing.bytesTotal && importing.phase === 'loading'
      ? Math.min(100, Math.round((importing.bytesRead / importing.bytesTotal) * 100))
      : null;
  return (
    <Stack spacing={0.5} sx={{ minWidth: 160 }} role="status" aria-label={t.importing(importing.version)}>
      <Typography variant="caption">
        {`${t.importing(importing.version)}: ${SOURCE_IMPORT_PHASE_LABELS[importing.phase]}`}
      </Typography>
      <LinearProgress
        variant={percent === null ? 'indeterminate' : 'determinate'}
        value={percent ?? 0}
        aria-label={t.importing(importing.version)}
      />
      <Typography variant="caption" color="text.secondary">
        {t.importRead(
          formatBytes(importing.bytesRead),
          importing.bytesTotal === null ? null : formatBytes(importing.bytesTotal),
          formatNumber(importing.rowsRead),
        )}
      </Typography>
    </Stack>
  );
}
