import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { STATISTICS_GROUPINGS, type StatisticsGrouping } from '@pledgewatch/contract';
import { useState } from 'react';
import { EventTypeSelect, SourceSelect } from '@/components/events/event-filter-selects';
import { DateRangeFields } from '@/components/ui/date-range-fields';
import { FILTER_GRID } from '@/components/ui/filter-grid';
import { Page } from '@/components/ui/page';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/features/statistics/texts';
import { getErrorMessageWithFields } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useStatistics } from '../api/get-statistics';
import { downloadStatisticsCsv } from './chart-export';
import { Charts } from './statistics-charts';
import {
  PERIOD_PRESETS,
  type PeriodPreset,
  periodIsEmpty,
  toStatisticsBody,
  useStatisticsView,
} from './statistics-view';

const t = texts.statistics;

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
            <DateRangeFields
              from={view.from}
              to={view.to}
              bounded
              onFromChange={(value) => value && setDate('from', value)}
              onToChange={(value) => value && setDate('to', value)}
            />
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
            <EventTypeSelect
              label={t.eventTypes}
              value={view.eventTypes}
              onChange={(types) => update({ types })}
              allLabel={t.allTypes}
              minWidth={220}
            />
            <SourceSelect
              label={t.sources}
              value={view.sources}
              onChange={(sources) => update({ sources })}
              allLabel={t.allSources}
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
          {getErrorMessageWithFields(statistics.error)}
        </Alert>
      ) : null}
      {data ? (
        <>
          {periodIsEmpty(data.totals) ? (
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
