import DownloadIcon from '@mui/icons-material/Download';
import ImageIcon from '@mui/icons-material/Image';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  EVENT_TYPE_CODES,
  EVENT_TYPES,
  type EventType,
  SOURCE_TYPE_CODES,
  SOURCE_TYPES,
  STATISTICS_GROUPINGS,
  type StatisticsGrouping,
  type StatisticsResponse,
} from '@pledgewatch/contract';
import { type ReactNode, useMemo, useRef, useState } from 'react';
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
import { MultiSelect } from '@/components/ui/multi-select';
import { Page } from '@/components/ui/page';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/features/statistics/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useStatistics } from '../api/get-statistics';
import { downloadChartPng, downloadStatisticsCsv, periodName } from './chart-export';
import { PERIOD_PRESETS, type PeriodPreset, toStatisticsBody, useStatisticsView } from './statistics-view';

/** Filters side by side where there is room (selects are as wide as their box, so no flex wrap). */
const FILTER_GRID = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: {
    xs: '1fr',
    sm: 'repeat(2, minmax(0, 1fr))',
    md: 'repeat(auto-fill, minmax(200px, 1fr))',
  },
} as const;

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

function Charts({ data }: { data: StatisticsResponse }) {
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
  };
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
            <Legend wrapperStyle={{ fontSize: 12 }} />
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
              <Legend wrapperStyle={{ fontSize: 12 }} />
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
              <Legend wrapperStyle={{ fontSize: 12 }} />
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
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="uploadRowsAccepted" stackId="rows" name={t.series.accepted} fill="#388e3c" />
              <Bar dataKey="uploadRowsRejected" stackId="rows" name={t.series.rejected} fill="#d32f2f" />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
      </Box>
    </Stack>
  );
}

export default function StatisticsPage() {
  const { view, update } = useStatisticsView();
  const [label, setLabel] = useState(view.label);
  const debouncedLabel = useDebouncedValue(label, SEARCH_DEBOUNCE_MS);
  const body = toStatisticsBody(view, debouncedLabel);
  const statistics = useStatistics(body);
  const data = statistics.data;

  const choosePreset = (preset: PeriodPreset | null) => {
    if (!preset) {
      return;
    }
    if (preset === 'custom') {
      update({ period: 'custom', from: view.from, to: view.to });
    } else {
      update({ period: preset === '30' ? null : preset, from: null, to: null });
    }
  };
  const setDate = (field: 'from' | 'to', value: string) => {
    const period = { from: view.from, to: view.to, [field]: value };
    update({ period: 'custom', from: period.from, to: period.to });
  };

  return (
    <Page
      title={t.title}
      actions={
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!data}
          onClick={() => data && downloadStatisticsCsv(data)}
        >
          {t.exportCsv}
        </Button>
      }
    >
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack spacing={2}>
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}
            useFlexGap
          >
            <ToggleButtonGroup
              size="small"
              exclusive
              value={view.preset}
              onChange={(_, value: PeriodPreset | null) => choosePreset(value)}
              aria-label={t.period}
              sx={{ flexWrap: 'wrap' }}
            >
              {PERIOD_PRESETS.map((preset) => (
                <ToggleButton key={preset} value={preset}>
                  {t.presets[preset]}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            <Stack direction="row" spacing={1}>
              <TextField
                type="date"
                sx={{ flex: 1, minWidth: 0 }}
                size="small"
                label={t.from}
                value={view.from}
                onChange={(event) => event.target.value && setDate('from', event.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: view.to } }}
              />
              <TextField
                type="date"
                sx={{ flex: 1, minWidth: 0 }}
                size="small"
                label={t.to}
                value={view.to}
                onChange={(event) => event.target.value && setDate('to', event.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: view.from } }}
              />
            </Stack>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={view.grouping}
              onChange={(_, value: StatisticsGrouping | null) =>
                value && update({ grouping: value === 'day' ? null : value })
              }
              aria-label={t.grouping}
            >
              {STATISTICS_GROUPINGS.map((grouping) => (
                <ToggleButton key={grouping} value={grouping}>
                  {t.groupings[grouping]}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
          <Box sx={FILTER_GRID}>
            <TextField
              select
              size="small"
              label={t.itemKind}
              value={view.itemKind ?? 'all'}
              onChange={(event) => update({ kind: event.target.value === 'all' ? null : event.target.value })}
              sx={{ minWidth: 0 }}
            >
              {(['all', 'vin', 'document'] as const).map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {t.itemKinds[kind]}
                </MenuItem>
              ))}
            </TextField>
            <MultiSelect
              label={t.eventTypes}
              codes={EVENT_TYPE_CODES}
              value={view.eventTypes}
              labelOf={(type) => EVENT_TYPES[type].label}
              onChange={(types) => update({ types })}
              allLabel={t.allTypes}
              selectedLabel={texts.common.selected}
              minWidth={220}
            />
            <MultiSelect
              label={t.sources}
              codes={SOURCE_TYPE_CODES}
              value={view.sources}
              labelOf={(type) => SOURCE_TYPES[type].name}
              onChange={(sources) => update({ sources })}
              allLabel={t.allSources}
              selectedLabel={texts.common.selected}
            />
            <TextField
              size="small"
              label={t.label}
              value={label}
              onChange={(event) => {
                setLabel(event.target.value);
                update({ label: event.target.value || null });
              }}
            />
          </Box>
          <Typography variant="caption" color="text.secondary">
            {t.filtersHint} {t.timezone}.
          </Typography>
        </Stack>
      </Paper>
      {statistics.isFetching ? <LinearProgress sx={{ mb: 1 }} /> : <Box sx={{ height: 4, mb: 1 }} />}
      {statistics.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {getErrorMessage(statistics.error)}
        </Alert>
      ) : null}
      {data ? (
        <>
          {data.totals.events === 0 && data.totals.checkRuns === 0 && data.totals.deliveriesTotal === 0 ? (
            <Alert severity="info" sx={{ mb: 2 }}>
              {t.empty}
            </Alert>
          ) : null}
          <Charts data={data} />
        </>
      ) : statistics.isPending ? (
        <Stack spacing={2}>
          <Skeleton variant="rounded" height={300} />
          <Skeleton variant="rounded" height={300} />
        </Stack>
      ) : null}
    </Page>
  );
}
