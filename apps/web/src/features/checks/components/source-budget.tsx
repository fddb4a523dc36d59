import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type Source, sourceProviderLabel } from '@pledgewatch/contract';
import { texts } from '@/features/checks/texts';
import { formatNumber } from '@/lib/format';

const t = texts.checks.sources;

const money = (value: number) =>
  value.toLocaleString('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Today's requests reached the daily limit: ours, not the provider failing — the rest wait for tomorrow. */
const limitSpent = (source: Source) =>
  source.dailyLimit !== null && source.requestsToday !== null && source.requestsToday >= source.dailyLimit;

/** A remote source's provider, requests today against the limit, coverage, and spend (admins get it). */
export function SourceBudget({ source }: { source: Source }) {
  if (source.adapter !== 'remote') {
    return <>{texts.common.dash}</>;
  }
  const lines = [
    source.provider && t.provider(sourceProviderLabel(source)),
    source.requestsToday !== null &&
      t.requestsToday(
        formatNumber(source.requestsToday),
        source.dailyLimit === null ? null : formatNumber(source.dailyLimit),
      ),
    limitSpent(source) && t.limitSpent,
    source.coverage !== null && t.coverage(formatNumber(Math.round(source.coverage * 1000) / 10)),
    source.itemsWaiting !== null && t.waiting(formatNumber(source.itemsWaiting)),
    source.spendToday != null &&
      source.spendMonth != null &&
      t.spend(money(source.spendToday), money(source.spendMonth)),
  ].filter((line): line is string => Boolean(line));
  return (
    <Tooltip title={t.budgetHint}>
      <span>
        {lines.map((line) => (
          <Typography key={line} variant="body2" color={line === t.limitSpent ? 'warning.main' : undefined}>
            {line}
          </Typography>
        ))}
      </span>
    </Tooltip>
  );
}
