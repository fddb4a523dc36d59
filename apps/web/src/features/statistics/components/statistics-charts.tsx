import ImageIcon from '@mui/icons-material/Image';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  EVENT_TYPE_CODES,
  EVENT_TYPES,
  type EventType,
  type StatisticsGrouping,
  type StatisticsResponse,
} from '@pledgewatch/contract';
import { type ReactNode, useMemo, useRef } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Tooltip as ChartTooltip,
  Legend,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from 'recharts';
import { texts } from '@/features/statistics/texts';
import { formatNumber } from '@/lib/format';
import { downloadChartPng, periodName } from './chart-export';

const t = texts.statistics;

/** One colour per event type (16), readable on light and dark backgrounds. */
const TYPE_COLORS = [
  '#d32f2f',
  '#1976d2',
  '#388e3c',
  '#f57c00',
  '#7b1fa2',
  '#0097a7',
  '#c2185b',
  '#5d4037',
  '#689f38',
  '#512da8',
  '#fbc02d',
  '#455a64',
  '#e64a19',
  '#0288d1',
  '#afb42b',
  '#8d6e63',
];
const typeColor = (type: EventType) => TYPE_COLORS[EVENT_TYPE_CODES.indexOf(type) % TYPE_COLORS.length];
const DELIVERY_COLORS: Record<DeliveryStatus, string> = {
  sent: '#388e3c',
  queued: '#90a4ae',
  sending: '#0288d1',
  retrying: '#f57c00',
  failed: '#d32f2f',
};

const monthFormat = new Intl.DateTimeFormat('ru-RU', { month: 'short', year: '2-digit', timeZone: 'UTC' });
function bucketLabel(bucket: string, grouping: StatisticsGrouping): string {
  if (grouping === 'month') {
    return monthFormat.format(new Date(`${bucket}T00:00:00Z`));
  }
  return `${bucket.slice(8, 10)}.${bucket.slice(5, 7)}`;
}

type Total = { label: string; value: number; testId?: string; color?: string };

function ChartCard({
  id,
  title,
  totals,
  data,
  children,
}: {
  id: string;
  title: string;
  totals: Total[];
  data: StatisticsResponse;
  children: ReactNode;
}) {
  const chartRef = useRef<HTMLDivElement>(null);
  const { from, to } = periodName(data);
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      data-testid={`chart-${id}`}
      component="section"
      aria-label={title}
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Tooltip title={t.exportPngLabel(title)}>
          <IconButton
            size="small"
            aria-label={t.exportPngLabel(title)}
            onClick={() => {
              if (chartRef.current) {
                void downloadChartPng(chartRef.current, title, t.csv.imageName(title, from, to));
              }
            }}
          >
            <ImageIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 200px' } }}>
        <Box ref={chartRef} sx={{ height: 260, minWidth: 0 }}>
          {children}
        </Box>
        <Stack spacing={1} component="dl" sx={{ m: 0 }}>
          {totals.map((total) => (
            <Box key={total.label}>
              <Typography variant="caption" color="text.secondary" component="dt">
                {total.color ? (
                  <Box
                    component="span"
                    sx={{
                      display: 'inline-block',
                      width: 10,
                      height: 10,
                      borderRadius: '2px',
                      bgcolor: total.color,
                      mr: 0.75,
                    }}
                  />
                ) : null}
                {total.label}
              </Typography>
              <Typography
                variant="h6"
                component="dd"
                sx={{ m: 0, lineHeight: 1.3 }}
                data-testid={total.testId}
                data-value={total.value}
              >
                {formatNumber(total.value)}
              </Typography>
            </Box>
          ))}
        </Stack>
      </Box>
    </Paper>
  );
}

/** The charts of one statistics answer: events by type, checks, notifications. */
export function Charts({ data }: { data: StatisticsResponse }) {
  const theme = useTheme();
  const axis = { fill: theme.palette.text.secondary, fontSize: 12 };
  const grid = theme.palette.divider;
  const rows = useMemo(
    () =>
      data.points.map((point) => ({
        ...point,
        ...point.eventsByType,
        ...Object.fromEntries(DELIVERY_STATUSES.map((status) => [`d_${status}`, point.deliveries[status]])),
        label: bucketLabel(point.bucket, data.grouping),
      })),
    [data],
  );
  const shownTypes = data.eventTypes.filter((type) => (data.totals.eventsByType[type] ?? 0) > 0);
  const tooltip = {
    contentStyle: { background: theme.palette.background.paper, borderColor: theme.palette.divider },
    labelStyle: { color: theme.palette.text.primary },
    // Recharts writes each line in its series colour, and the darker ones vanish on a dark paper.
    itemStyle: { color: theme.palette.text.primary },
  };
  // The swatch keeps the series colour; the words are in the text colour, readable in both themes.
  const legend = (
    <Legend
      wrapperStyle={{ fontSize: 12 }}
      formatter={(value: string) => <span style={{ color: theme.palette.text.primary }}>{value}</span>}
    />
  );
  const common = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke={grid} vertical={false} />
      <XAxis dataKey="label" tick={axis} stroke={grid} minTickGap={12} />
      <YAxis tick={axis} stroke={grid} allowDecimals={false} width={56} />
      <ChartTooltip {...tooltip} />
    </>
  );
  const totals = data.totals;
  return (
    <Stack spacing={2}>
      <ChartCard
        id="events"
        title={t.charts.events}
        data={data}
        totals={[
          { label: t.totals.events, value: totals.events, testId: 'total-events' },
          ...shownTypes.slice(0, 5).map((type) => ({
            label: EVENT_TYPES[type].label,
            value: totals.eventsByType[type] ?? 0,
            color: typeColor(type),
          })),
        ]}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows}>
            {common}
            {legend}
            {shownTypes.length === 0 ? (
              <Bar dataKey="events" name={t.totals.events} fill={theme.palette.primary.main} />
            ) : (
              shownTypes.map((type) => (
                <Bar
                  key={type}
                  dataKey={type}
                  stackId="events"
                  name={EVENT_TYPES[type].label}
                  fill={typeColor(type)}
                />
              ))
            )}
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', xl: '1fr 1fr' } }}>
        <ChartCard
          id="portfolio"
          title={t.charts.portfolio}
          data={data}
          totals={[
            { label: t.totals.portfolioEnd, value: totals.itemsMonitoredEnd, testId: 'total-portfolio' },
            { label: t.totals.portfolioStart, value: totals.itemsMonitoredStart },
            { label: t.totals.added, value: totals.itemsAdded },
            { label: t.totals.archived, value: totals.itemsArchived },
          ]}
        >
          <ResponsiveContainer width="100%" height="100%">
            <AreaChart data={rows}>
              {common}
              <Area
                type="monotone"
                dataKey="itemsMonitored"
                name={t.series.monitored}
                stroke={theme.palette.primary.main}
                fill={theme.palette.primary.main}
                fillOpacity={0.2}
                isAnimationActive={false}
              />
            </AreaChart>
          </ResponsiveContainer>
        </ChartCard>

        <ChartCard
          id="checks"
          title={t.charts.checks}
          data={data}
          totals={[
            {
              label: t.totals.checkRuns,
              value: totals.checkRuns,
              testId: 'total-check-runs',
              color: '#1976d2',
            },
            { label: t.totals.checkRunItems, value: totals.checkRunItems },
            { label: t.totals.oneTimeChecks, value: totals.oneTimeChecks, color: '#f57c00' },
          ]}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows}>
              {common}
              {legend}
              <Bar dataKey="checkRuns" name={t.series.checkRuns} fill="#1976d2" />
              <Bar dataKey="oneTimeChecks" name={t.series.oneTimeChecks} fill="#f57c00" />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>

        <ChartCard
          id="deliveries"
          title={t.charts.deliveries}
          data={data}
          totals={[
            { label: t.totals.deliveries, value: totals.deliveriesTotal, testId: 'total-deliveries' },
            ...DELIVERY_STATUSES.filter((status) => totals.deliveries[status] > 0).map((status) => ({
              label: DELIVERY_STATUS_LABELS[status],
              value: totals.deliveries[status],
              color: DELIVERY_COLORS[status],
            })),
          ]}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows}>
              {common}
              {legend}
              {DELIVERY_STATUSES.map((status) => (
                <Bar
                  key={status}
                  dataKey={`d_${status}`}
                  stackId="deliveries"
                  name={DELIVERY_STATUS_LABELS[status]}
                  fill={DELIVERY_COLORS[status]}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>

        <ChartCard
          id="uploads"
          title={t.charts.uploads}
          data={data}
          totals={[
            { label: t.totals.uploads, value: totals.uploads, testId: 'total-uploads' },
            { label: t.totals.uploadRows, value: totals.uploadRows },
            { label: t.totals.accepted, value: totals.uploadRowsAccepted, color: '#388e3c' },
            { label: t.totals.rejected, value: totals.uploadRowsRejected, color: '#d32f2f' },
          ]}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows}>
              {common}
              {legend}
              <Bar dataKey="uploadRowsAccepted" stackId="rows" name={t.series.accepted} fill="#388e3c" />
              <Bar dataKey="uploadRowsRejected" stackId="rows" name={t.series.rejected} fill="#d32f2f" />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>

        {/* Money comes to admins only: the server sends no spend to other roles. */}
        {totals.spend !== undefined && (
          <ChartCard
            id="spend"
            title={t.charts.spend}
            data={data}
            totals={[{ label: t.totals.spend, value: totals.spend, testId: 'total-spend', color: '#6a1b9a' }]}
          >
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={rows}>
                {common}
                {legend}
                <Bar dataKey="spend" name={t.series.spend} fill="#6a1b9a" />
              </BarChart>
            </ResponsiveContainer>
          </ChartCard>
        )}
      </Box>
    </Stack>
  );
}
