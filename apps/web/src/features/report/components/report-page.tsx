import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  type EventType,
  ITEM_STATUS_LABELS,
  ITEM_STATUSES,
  type ItemKind,
  type ItemStatus,
  REPORT_ENCODINGS,
  REPORT_FORMATS,
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  REPORT_KINDS_WITH_PERIOD,
  REPORT_PDF_ROW_LIMIT,
  type ReportEncoding,
  type ReportFormat,
  type ReportKind,
  type Severity,
  type SourceType,
} from '@pledgewatch/contract';
import { useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { EventTypeSelect, SeveritySelect, SourceSelect } from '@/components/events/event-filter-selects';
import { DateRangeFields } from '@/components/ui/date-range-fields';
import { FILTER_GRID } from '@/components/ui/filter-grid';
import { MultiSelect } from '@/components/ui/multi-select';
import { Page } from '@/components/ui/page';
import { texts } from '@/features/report/texts';
import { getErrorMessageWithFields } from '@/lib/api-client';
import { formatBytes, formatNumber } from '@/lib/format';
import { moscowToday } from '@/lib/moscow-time';
import { saveFile } from '@/lib/save-file';
import {
  type ReportProgress,
  type ReportRequest,
  reportUrl,
  useDownloadReport,
} from '../api/download-report';

const t = texts.report;

const DAY_MS = 86_400_000;
const minusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
const PRESETS = ['7', '30', '90', 'year'] as const;
type Preset = (typeof PRESETS)[number];
function presetPeriod(preset: Preset): { from: string; to: string } {
  const to = moscowToday();
  return preset === 'year'
    ? { from: `${to.slice(0, 4)}-01-01`, to }
    : { from: minusDays(to, Number(preset) - 1), to };
}

type Form = {
  kind: ReportKind;
  from: string;
  to: string;
  /** Uploads may be reported for all time. */
  allTime: boolean;
  eventTypes: EventType[];
  severities: Severity[];
  sources: SourceType[];
  read: 'all' | 'unread' | 'read';
  itemKind: ItemKind | 'all';
  statuses: ItemStatus[];
  label: string;
  format: ReportFormat;
  encoding: ReportEncoding;
};

const INITIAL: Form = {
  kind: 'events',
  ...presetPeriod('30'),
  allTime: false,
  eventTypes: [],
  severities: [],
  sources: [],
  read: 'all',
  itemKind: 'all',
  statuses: [],
  label: '',
  format: 'xlsx',
  encoding: 'utf-8',
};

/** The query of the form: only the filters the chosen kind understands. */
export function toReportQuery(form: Form): ReportRequest {
  const withPeriod =
    REPORT_KINDS_WITH_PERIOD.includes(form.kind) && !(form.kind === 'uploads' && form.allTime);
  const query: ReportRequest = { kind: form.kind, format: form.format };
  if (form.format === 'csv') {
    query.encoding = form.encoding;
  }
  if (withPeriod) {
    query.from = form.from;
    query.to = form.to;
  }
  if (form.kind !== 'uploads' && form.itemKind !== 'all') {
    query.itemKind = form.itemKind;
  }
  if (form.kind === 'events') {
    Object.assign(query, {
      type: form.eventTypes.length ? form.eventTypes.join(',') : undefined,
      severity: form.severities.length ? form.severities.join(',') : undefined,
      source: form.sources.length ? form.sources.join(',') : undefined,
      read: form.read === 'all' ? undefined : String(form.read === 'read'),
    });
  }
  if (form.kind === 'portfolio' && form.statuses.length) {
    Object.assign(query, { status: form.statuses.join(',') });
  }
  if ((form.kind === 'events' || form.kind === 'portfolio') && form.label.trim()) {
    query.label = form.label.trim();
  }
  return query;
}

function ProgressLine({ progress }: { progress: ReportProgress | null }) {
  if (!progress) {
    return (
      <Stack spacing={0.5}>
        <LinearProgress />
        <Typography variant="caption">{t.preparing}</Typography>
      </Stack>
    );
  }
  // The estimate is rough: the bar never claims to be done before the last byte.
  const percent =
    progress.estimated > 0 ? Math.min(99, (progress.received / progress.estimated) * 100) : null;
  return (
    <Stack spacing={0.5} data-testid="report-progress">
      <LinearProgress
        variant={percent === null ? 'indeterminate' : 'determinate'}
        value={percent ?? undefined}
      />
      <Typography variant="caption">
        {progress.rows === null
          ? t.progressBytes(formatBytes(progress.received))
          : t.progress(formatBytes(progress.received), formatNumber(progress.rows))}
      </Typography>
    </Stack>
  );
}

export default function ReportPage() {
  const [form, setForm] = useState<Form>(INITIAL);
  const [preset, setPreset] = useState<Preset | null>('30');
  const [progress, setProgress] = useState<ReportProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const download = useDownloadReport();
  const set = (changes: Partial<Form>) => setForm((current) => ({ ...current, ...changes }));
  const query = toReportQuery(form);
  const needsPeriod = REPORT_KINDS_WITH_PERIOD.includes(form.kind);

  const start = () => {
    setError(null);
    setProgress(null);
    const controller = new AbortController();
    abort.current = controller;
    download.mutate(
      { query, signal: controller.signal, onProgress: setProgress },
      {
        onSuccess: (file) => {
          saveFile(file.blob, file.fileName);
          toast.success(t.done(file.fileName, formatNumber(file.rows ?? 0)));
        },
        onError: (failure) => {
          if (failure instanceof DOMException && failure.name === 'AbortError') {
            toast.info(t.cancelled);
            return;
          }
          setError(getErrorMessageWithFields(failure));
        },
        onSettled: () => {
          abort.current = null;
        },
      },
    );
  };

  return (
    <Page title={t.title}>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, maxWidth: 960 }}>
        <Stack spacing={3}>
          <KindSection form={form} set={set} />

          {needsPeriod ? <PeriodSection form={form} set={set} preset={preset} setPreset={setPreset} /> : null}

          {form.kind !== 'uploads' ? <FiltersSection form={form} set={set} /> : null}

          <FormatSection form={form} set={set} />

          {error ? <Alert severity="error">{error}</Alert> : null}
          {download.isPending ? <ProgressLine progress={progress} /> : null}

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Button
              variant="contained"
              startIcon={<DownloadIcon />}
              onClick={start}
              disabled={download.isPending}
              data-testid="report-download"
            >
              {t.download}
            </Button>
            {download.isPending ? (
              <Button variant="outlined" onClick={() => abort.current?.abort()}>
                {t.cancel}
              </Button>
            ) : null}
            <Box>
              <Link href={reportUrl(query)} variant="body2" download>
                {t.directLink}
              </Link>
              <Typography variant="caption" color="text.secondary" component="p">
                {t.directLinkHint}
              </Typography>
            </Box>
          </Stack>
          <Typography variant="caption" color="text.secondary">
            {t.streamingHint}
          </Typography>
        </Stack>
      </Paper>
    </Page>
  );
}

type SectionProps = { form: Form; set: (changes: Partial<Form>) => void };

/** Which report: one radio per kind, with its hint. */
function KindSection({ form, set }: SectionProps) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {t.kind}
      </Typography>
      <RadioGroup
        value={form.kind}
        onChange={(event) => set({ kind: event.target.value as ReportKind })}
        aria-label={t.kind}
      >
        {REPORT_KINDS.map((kind) => (
          <FormControlLabel
            key={kind}
            value={kind}
            control={<Radio size="small" />}
            label={
              <Box sx={{ py: 0.5 }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {REPORT_KIND_LABELS[kind]}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t.kindHints[kind]}
                </Typography>
              </Box>
            }
          />
        ))}
      </RadioGroup>
    </Box>
  );
}

/** The period: a preset, or dates from and to (the uploads report may take all time). */
function PeriodSection({
  form,
  set,
  preset,
  setPreset,
}: SectionProps & { preset: Preset | null; setPreset: (preset: Preset | null) => void }) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {t.period}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={form.allTime ? null : preset}
          onChange={(_, value: Preset | null) => {
            if (value) {
              setPreset(value);
              set({ ...presetPeriod(value), allTime: false });
            }
          }}
          aria-label={t.period}
        >
          {PRESETS.map((value) => (
            <ToggleButton key={value} value={value}>
              {t.presets[value]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <DateRangeFields
          from={form.from}
          to={form.to}
          disabled={form.allTime}
          onFromChange={(value) => {
            setPreset(null);
            set({ from: value });
          }}
          onToChange={(value) => {
            setPreset(null);
            set({ to: value });
          }}
        />
        {form.kind === 'uploads' ? (
          <ToggleButton
            size="small"
            value="all"
            selected={form.allTime}
            onChange={() => set({ allTime: !form.allTime })}
          >
            {t.allTime}
          </ToggleButton>
        ) : null}
      </Stack>
    </Box>
  );
}

/** The filters the report kind takes: item kind, event filters, item statuses, label. */
function FiltersSection({ form, set }: SectionProps) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {t.filters}
      </Typography>
      <Box sx={FILTER_GRID}>
        <TextField
          select
          size="small"
          label={t.itemKind}
          value={form.itemKind}
          onChange={(event) => set({ itemKind: event.target.value as Form['itemKind'] })}
          sx={{ minWidth: 0 }}
        >
          {(['all', 'vin', 'document'] as const).map((kind) => (
            <MenuItem key={kind} value={kind}>
              {t.itemKinds[kind]}
            </MenuItem>
          ))}
        </TextField>
        {form.kind === 'events' ? (
          <>
            <EventTypeSelect
              label={t.eventTypes}
              value={form.eventTypes}
              onChange={(eventTypes) => set({ eventTypes })}
              allLabel={t.allTypes}
              minWidth={220}
            />
            <SeveritySelect
              label={t.severities}
              value={form.severities}
              onChange={(severities) => set({ severities })}
              allLabel={t.allSeverities}
              minWidth={150}
            />
            <SourceSelect
              label={t.sources}
              value={form.sources}
              onChange={(sources) => set({ sources })}
              allLabel={t.allSources}
            />
            <TextField
              select
              size="small"
              label={t.read}
              value={form.read}
              onChange={(event) => set({ read: event.target.value as Form['read'] })}
              sx={{ minWidth: 160 }}
            >
              <MenuItem value="all">{t.readAll}</MenuItem>
              <MenuItem value="unread">{t.readUnread}</MenuItem>
              <MenuItem value="read">{t.readRead}</MenuItem>
            </TextField>
          </>
        ) : null}
        {form.kind === 'portfolio' ? (
          <MultiSelect
            label={t.statuses}
            codes={ITEM_STATUSES}
            value={form.statuses}
            labelOf={(status) => ITEM_STATUS_LABELS[status]}
            onChange={(statuses) => set({ statuses })}
            allLabel={t.defaultStatuses}
            selectedLabel={texts.common.selected}
            minWidth={230}
          />
        ) : null}
        {form.kind === 'events' || form.kind === 'portfolio' ? (
          <TextField
            size="small"
            label={t.label}
            value={form.label}
            onChange={(event) => set({ label: event.target.value })}
          />
        ) : null}
      </Box>
    </Box>
  );
}

/** The file format, the CSV encoding and the PDF row limit. */
function FormatSection({ form, set }: SectionProps) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {t.format}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <RadioGroup
          row
          value={form.format}
          onChange={(event) => set({ format: event.target.value as ReportFormat })}
          aria-label={t.format}
        >
          {REPORT_FORMATS.map((format) => (
            <FormControlLabel
              key={format}
              value={format}
              control={<Radio size="small" />}
              label={t.formats[format]}
            />
          ))}
        </RadioGroup>
        {form.format === 'csv' ? (
          <TextField
            select
            size="small"
            label={t.encoding}
            value={form.encoding}
            onChange={(event) => set({ encoding: event.target.value as ReportEncoding })}
            sx={{ minWidth: 180 }}
          >
            {REPORT_ENCODINGS.map((encoding) => (
              <MenuItem key={encoding} value={encoding}>
                {t.encodings[encoding]}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
      </Stack>
      {form.format === 'pdf' ? (
        <Typography variant="caption" color="text.secondary">
          {t.pdfLimit(formatNumber(REPORT_PDF_ROW_LIMIT))}
        </Typography>
      ) : null}
    </Box>
  );
}
