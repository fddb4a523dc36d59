import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SOURCE_TYPES, type SourceAnswer, sourceProviderLabel } from '@pledgewatch/contract';
import { SeverityChip } from '@/components/ui/severity-chip';
import { texts } from '@/features/one-time-check/texts';
import { FindingFields } from './finding-fields';
import { findingSeverity, maxSeverity } from './source-severity';

const t = texts.oneTimeCheck.results;

/** What a source's answer amounts to; a failed source is never «nothing found». */
export type AnswerOutcome = 'found' | 'failed' | 'clean' | 'skipped';

export function answerOutcome(answer: SourceAnswer): AnswerOutcome {
  if (answer.status === 'failed') {
    return 'failed';
  }
  if (answer.status === 'skipped') {
    return 'skipped';
  }
  return answer.findings.length > 0 ? 'found' : 'clean';
}

const OUTCOME_ORDER: Record<AnswerOutcome, number> = { found: 0, failed: 1, clean: 2, skipped: 3 };

/** Sources with records first, then the ones that did not answer, then the clean and skipped ones. */
export const sortAnswers = (answers: SourceAnswer[]): SourceAnswer[] =>
  [...answers].sort((a, b) => OUTCOME_ORDER[answerOutcome(a)] - OUTCOME_ORDER[answerOutcome(b)]);

const OUTCOME_STYLE = {
  found: { icon: <ReportProblemOutlinedIcon color="warning" />, border: 'warning.main' },
  failed: { icon: <ErrorOutlineIcon color="error" />, border: 'error.main' },
  clean: { icon: <CheckCircleOutlineIcon color="success" />, border: 'divider' },
  skipped: { icon: <RemoveCircleOutlineIcon color="disabled" />, border: 'divider' },
} as const;

export function SourceAnswerCard({ answer }: { answer: SourceAnswer }) {
  const outcome = answerOutcome(answer);
  const severities = answer.findings.map((finding) => findingSeverity(answer.type, finding.payload));
  const worst = maxSeverity(severities);
  const meta = [
    sourceProviderLabel(answer),
    answer.datasetVersion !== null ? t.datasetVersion(answer.datasetVersion) : null,
    answer.fromCache ? t.fromCache : null,
    answer.status !== 'skipped' ? t.duration(answer.durationMs) : null,
  ].filter(Boolean);

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={answer.name}
      data-testid={`source-${answer.type}`}
      data-outcome={outcome}
      sx={{ p: 2, borderLeftWidth: 4, borderLeftColor: OUTCOME_STYLE[outcome].border }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ pt: 0.25 }}>{OUTCOME_STYLE[outcome].icon}</Box>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
          >
            <Box>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                {answer.name}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {SOURCE_TYPES[answer.type].description} · {meta.join(' · ')}
              </Typography>
            </Box>
            <Stack direction="row" spacing={1} sx={{ flexShrink: 0, alignItems: 'center' }}>
              {worst && <SeverityChip severity={worst} />}
              <Chip
                size="small"
                color={
                  outcome === 'failed'
                    ? 'error'
                    : outcome === 'found'
                      ? 'warning'
                      : outcome === 'clean'
                        ? 'success'
                        : 'default'
                }
                variant={outcome === 'failed' ? 'filled' : 'outlined'}
                label={t.outcome[outcome](answer.findings.length)}
                data-testid="source-outcome"
              />
            </Stack>
          </Stack>

          {outcome === 'failed' && (
            <Alert severity="error" sx={{ mt: 1.5 }}>
              {t.failedExplanation(answer.error ?? t.unknownError)}
            </Alert>
          )}

          {answer.findings.map((finding, index) => (
            <Box
              key={finding.key}
              sx={{ mt: 1.5, pt: 1.5, borderTop: 1, borderColor: 'divider' }}
              data-testid="finding"
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {t.findingKey(finding.key)}
                </Typography>
                {severities[index] && <SeverityChip severity={severities[index]} />}
                {finding.payload.demo === true && (
                  <Chip size="small" label={texts.oneTimeCheck.demo} color="secondary" />
                )}
              </Stack>
              <FindingFields payload={finding.payload} />
            </Box>
          ))}
        </Box>
      </Stack>
    </Paper>
  );
}
