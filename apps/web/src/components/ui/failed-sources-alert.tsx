import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import type { FailedSource } from '@pledgewatch/contract';

/**
 * The sources that did not answer during a run, with their reasons: a run with a failed source is
 * never shown as clean (issue 14). Nothing when every source answered.
 */
export function FailedSourcesAlert({
  sources,
  title,
  line,
}: {
  sources: FailedSource[];
  title: string;
  /** One source as the screen words it: «Розыск — Источник ответил ошибкой 503 (не проверено: 12)». */
  line: (source: FailedSource) => string;
}) {
  if (sources.length === 0) {
    return null;
  }
  return (
    <Alert severity="warning" data-testid="failed-sources" sx={{ py: 0.5 }}>
      <AlertTitle sx={{ mb: 0.5 }}>{title}</AlertTitle>
      {sources.map((source) => (
        <div key={source.type} data-testid="failed-source" data-source={source.type}>
          {line(source)}
        </div>
      ))}
    </Alert>
  );
}
