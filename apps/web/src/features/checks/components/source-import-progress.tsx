import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SOURCE_IMPORT_PHASE_LABELS, type Source } from '@pledgewatch/contract';
import { texts } from '@/features/checks/texts';
import { formatBytes, formatNumber } from '@/lib/format';

const t = texts.checks.sources;

/** The phases whose bytes are a share of a known total: the file downloaded, then read. */
const BYTE_PHASES = new Set(['downloading', 'loading']);

/**
 * A version being imported in the background: its phase, the bytes downloaded (the daily fetch) or
 * read of the file so far, and the rows read once there are rows.
 */
export function SourceImportProgress({ importing }: { importing: NonNullable<Source['importing']> }) {
  const percent =
    importing.bytesTotal && BYTE_PHASES.has(importing.phase)
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
          importing.phase === 'downloading' ? null : formatNumber(importing.rowsRead),
        )}
      </Typography>
    </Stack>
  );
}
