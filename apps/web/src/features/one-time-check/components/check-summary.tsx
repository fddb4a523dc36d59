import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { OneTimeCheck } from '@pledgewatch/contract';
import { DefinitionList } from '@/components/ui/definition-list';
import { texts } from '@/features/one-time-check/texts';
import { formatDateTime, formatNumber } from '@/lib/format';
import { CheckStatusChip } from './check-status-chip';
import { vinDecodingLines } from './vin-preview';

const t = texts.oneTimeCheck.results;

/** Who checked what and when, the overall status and what the identifier itself says. */
export function CheckSummary({ check }: { check: OneTimeCheck }) {
  const failed = check.sources.filter((answer) => answer.status === 'failed').length;
  const decodingLines = check.decoded
    ? [
        ...vinDecodingLines(check.decoded),
        {
          label: texts.oneTimeCheck.decoding.checkDigit,
          value: check.decoded.checkDigitValid
            ? t.checkDigitValid
            : t.checkDigitInvalid(check.decoded.checkDigitExpected),
        },
      ]
    : [];

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        <Stack spacing={1.5} sx={{ flex: 1, minWidth: 0 }}>
          <Box>
            <Typography variant="overline" color="text.secondary">
              {check.kind === 'vin' ? texts.oneTimeCheck.form.kindVin : check.documentTypeLabel}
            </Typography>
            <Typography
              variant="h5"
              component="p"
              data-testid="check-identifier"
              sx={{
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                wordBreak: 'break-all',
              }}
            >
              {check.identifierDisplay}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <CheckStatusChip status={check.status} />
            <Chip
              size="small"
              color={check.findingsCount > 0 ? 'warning' : 'default'}
              label={t.findingsCount(check.findingsCount)}
            />
            {check.demo && <Chip size="small" color="secondary" label={texts.oneTimeCheck.demo} />}
          </Stack>
          <DefinitionList
            lines={[
              { label: t.number, value: check.number },
              { label: t.checkedBy, value: check.createdBy.fullName },
              { label: t.checkedAt, value: t.moscow(formatDateTime(check.createdAt)) },
              { label: t.durationLabel, value: t.duration(check.durationMs) },
              {
                label: t.sourcesLabel,
                value: t.sourcesAnswered(check.sources.length - failed, formatNumber(check.sources.length)),
              },
            ]}
          />
        </Stack>
        {decodingLines.length > 0 && (
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {texts.oneTimeCheck.decoding.title}
            </Typography>
            <DefinitionList lines={decodingLines} />
          </Box>
        )}
      </Stack>
      {failed > 0 && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="failed-sources-alert">
          {t.failedSourcesWarning(failed)}
        </Alert>
      )}
      {check.warnings.map((warning) => (
        <Alert key={warning} severity="warning" sx={{ mt: 2 }}>
          {warning}
        </Alert>
      ))}
    </Paper>
  );
}
