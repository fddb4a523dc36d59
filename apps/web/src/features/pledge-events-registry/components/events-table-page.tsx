import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Drawer from '@mui/material/Drawer';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DOCUMENT_TYPE_LABELS,
  EVENT_SUBMISSION_STATUS_LABELS,
  EVENT_SUBMISSION_STATUSES,
  PLEDGE_EVENT_KIND_LABELS,
  PLEDGE_EVENT_KINDS,
  type PledgeEvent,
} from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ServerPagination } from '@/components/ui/server-pagination';
import { texts } from '@/features/pledge-events-registry/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { formatDateTime } from '@/lib/format';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useAddPackageEvents } from '../api/add-package-events';
import { useCreatePledgePackage } from '../api/create-pledge-package';
import { usePledgeEvent } from '../api/get-pledge-event';
import { type PledgeEventsFilter, usePledgeEvents } from '../api/get-pledge-events';
import { usePledgePackages } from '../api/get-pledge-packages';

const t = texts.pledgeEventsRegistry;

export const ruDate = (iso: string | null | undefined) =>
  iso ? iso.split('-').reverse().join('.') : texts.common.dash;

const STATUS_COLORS: Record<string, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  new: 'default',
  draft: 'info',
  ready: 'warning',
  sent: 'info',
  registered: 'success',
  rejected: 'error',
};

type Filters = Omit<PledgeEventsFilter, 'page' | 'pageSize'>;

/** The organisation's pledge notifications: filtered and paged on the server, chosen into packages. */
export default function EventsTablePage() {
  const user = useUser();
  const canWrite = user?.role !== 'viewer';
  const [filters, setFilters] = useState<Filters>({});
  const { page, pageSize, setPage, onChange } = usePagination(25);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const debounced = useDebouncedValue(filters, 300);
  const events = usePledgeEvents({ ...debounced, page, pageSize });
  const create = useCreatePledgePackage({
    onSuccess: (created) => {
      setSelected(new Set());
      toast.success(`${created.name}: ${t.packages.events(created.eventsCount)}`);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });

  const set = (patch: Filters) => {
    setFilters((current) => ({ ...current, ...patch }));
    setPage(1);
  };
  const items = events.data?.items ?? [];
  const free = items.filter((event) => event.package === null);
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return next;
    });
  const allFreeSelected = free.length > 0 && free.every((event) => selected.has(event.id));

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Grid container spacing={1.5} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 6, md: 2 }}>
            <TextField
              select
              size="small"
              fullWidth
              label={t.filters.kind}
              value={filters.kind ?? ''}
              onChange={(event) => set({ kind: event.target.value || undefined })}
            >
              <MenuItem value="">{t.filters.allKinds}</MenuItem>
              {PLEDGE_EVENT_KINDS.map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {PLEDGE_EVENT_KIND_LABELS[kind]}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <TextField
              select
              size="small"
              fullWidth
              label={t.filters.status}
              value={filters.status ?? ''}
              onChange={(event) => set({ status: event.target.value || undefined })}
            >
              <MenuItem value="">{t.filters.allStatuses}</MenuItem>
              {EVENT_SUBMISSION_STATUSES.map((status) => (
                <MenuItem key={status} value={status}>
                  {EVENT_SUBMISSION_STATUS_LABELS[status]}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <TextField
              size="small"
              type="date"
              fullWidth
              label={t.filters.from}
              slotProps={{ inputLabel: { shrink: true } }}
              value={filters.from ?? ''}
              onChange={(event) => set({ from: event.target.value || undefined })}
            />
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <TextField
              size="small"
              type="date"
              fullWidth
              label={t.filters.to}
              slotProps={{ inputLabel: { shrink: true } }}
              value={filters.to ?? ''}
              onChange={(event) => set({ to: event.target.value || undefined })}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <FormControlLabel
              control={
                <Switch
                  checked={Boolean(filters.lapsing)}
                  onChange={(_, checked) => set({ lapsing: checked || undefined })}
                />
              }
              label={t.filters.lapsing}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              size="small"
              fullWidth
              label={t.filters.vin}
              value={filters.vin ?? ''}
              onChange={(event) => set({ vin: event.target.value || undefined })}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              size="small"
              fullWidth
              label={t.filters.pledgor}
              value={filters.pledgor ?? ''}
              onChange={(event) => set({ pledgor: event.target.value || undefined })}
            />
          </Grid>
          <Grid size={{ xs: 9, md: 3 }}>
            <TextField
              size="small"
              fullWidth
              label={t.filters.registrationNumber}
              value={filters.registrationNumber ?? ''}
              onChange={(event) => set({ registrationNumber: event.target.value || undefined })}
            />
          </Grid>
          <Grid size={{ xs: 3, md: 1 }}>
            <Button
              onClick={() =>
                set({
                  kind: undefined,
                  status: undefined,
                  from: undefined,
                  to: undefined,
                  vin: undefined,
                  pledgor: undefined,
                  registrationNumber: undefined,
                  lapsing: undefined,
                })
              }
            >
              {t.filters.reset}
            </Button>
          </Grid>
        </Grid>
      </Paper>

      {canWrite && selected.size > 0 && (
        <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="selection-bar">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Typography sx={{ flexGrow: 1 }}>{t.table.selected(selected.size)}</Typography>
            <Button
              variant="contained"
              loading={create.isPending}
              onClick={() => create.mutate({ eventIds: [...selected] })}
            >
              {t.table.createPackage}
            </Button>
            <Button variant="outlined" onClick={() => setAdding(true)}>
              {t.table.addToPackage}
            </Button>
          </Stack>
        </Paper>
      )}

      {events.isError && <Alert severity="error">{getErrorMessage(events.error)}</Alert>}
      {events.isPending ? (
        <Skeleton variant="rounded" height={240} />
      ) : items.length === 0 ? (
        <Alert severity="info">
          {Object.values(filters).some(Boolean) ? t.table.emptyFiltered : t.table.empty}
        </Alert>
      ) : (
        <Paper variant="outlined">
          <TableContainer>
            <Table size="small" aria-label={texts.pages.pledgesEventsRegistry.tabTable}>
              <TableHead>
                <TableRow>
                  {canWrite && (
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={allFreeSelected}
                        disabled={free.length === 0}
                        onChange={() =>
                          setSelected(allFreeSelected ? new Set() : new Set(free.map((event) => event.id)))
                        }
                        slotProps={{ input: { 'aria-label': t.table.selectAll } }}
                      />
                    </TableCell>
                  )}
                  <TableCell>{t.table.date}</TableCell>
                  <TableCell>{t.table.kind}</TableCell>
                  <TableCell>{t.table.pledgor}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t.table.contract}</TableCell>
                  <TableCell>{t.table.vehicles}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t.table.pledge}</TableCell>
                  <TableCell>{t.table.package}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((event) => (
                  <EventRow
                    key={event.id}
                    event={event}
                    canWrite={canWrite}
                    selected={selected.has(event.id)}
                    onToggle={() => toggle(event.id)}
                    onOpen={() => setOpenId(event.id)}
                  />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <ServerPagination
            count={events.data?.total}
            page={page}
            pageSize={pageSize}
            onChange={onChange}
            rowsPerPageOptions={[25, 50, 100]}
            labelRowsPerPage={t.table.rowsPerPage}
            labelDisplayedRows={({ from, to, count }) => t.table.of(from, to, count)}
          />
        </Paper>
      )}
      <EventDrawer eventId={openId} onClose={() => setOpenId(null)} />
      {adding && (
        <AddToPackageDialog
          eventIds={[...selected]}
          onClose={(done) => {
            setAdding(false);
            if (done) {
              setSelected(new Set());
            }
          }}
        />
      )}
    </Stack>
  );
}

const vehicleText = (v: PledgeEvent['vehicles'][number]) =>
  v.vin ?? (v.bodyNumber ? `кузов ${v.bodyNumber}` : `шасси ${v.chassisNumber ?? ''}`);

function EventRow({
  event,
  canWrite,
  selected,
  onToggle,
  onOpen,
}: {
  event: PledgeEvent;
  canWrite: boolean;
  selected: boolean;
  onToggle: () => void;
  onOpen: () => void;
}) {
  const [first, ...rest] = event.vehicles;
  return (
    <TableRow
      hover
      selected={selected}
      data-testid="pledge-event-row"
      data-kind={event.kind}
      sx={{ cursor: 'pointer' }}
      onClick={onOpen}
    >
      {canWrite && (
        <TableCell padding="checkbox" onClick={(e) => e.stopPropagation()}>
          <Checkbox
            checked={selected}
            disabled={event.package !== null}
            onChange={onToggle}
            slotProps={{
              input: { 'aria-label': t.table.select(`${event.kindLabel} ${event.contract.number}`) },
            }}
          />
        </TableCell>
      )}
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{ruDate(event.notificationDate)}</TableCell>
      <TableCell>
        {event.kindLabel}
        {(event.registeredNumber ?? event.registrationNumber ?? event.pledge.registrationNumber) && (
          <Typography
            variant="caption"
            color="text.secondary"
            sx={{ display: 'block', whiteSpace: 'nowrap' }}
          >
            {event.registeredNumber ?? event.registrationNumber ?? event.pledge.registrationNumber}
          </Typography>
        )}
      </TableCell>
      <TableCell>{event.pledgor.name}</TableCell>
      <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
        {`№ ${event.contract.number} от ${ruDate(event.contract.date)}`}
      </TableCell>
      <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
        {first ? vehicleText(first) : texts.common.dash}
        {rest.length > 0 && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t.table.more(rest.length)}
          </Typography>
        )}
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <span>{event.pledge.statusLabel}</span>
          {event.lapse && (
            <Chip
              size="small"
              color="warning"
              icon={<WarningAmberIcon />}
              label={t.table.lapse(event.lapse.daysLeft)}
              data-testid="lapse-flag"
            />
          )}
        </Stack>
      </TableCell>
      <TableCell>
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <Chip
            size="small"
            variant="outlined"
            color={STATUS_COLORS[event.status]}
            label={event.statusLabel}
          />
          {event.package && (
            <Typography variant="caption" color="text.secondary">
              {event.package.name}
            </Typography>
          )}
        </Stack>
      </TableCell>
    </TableRow>
  );
}

function partyLines(party: PledgeEvent['pledgor']): string[] {
  if (party.type === 'company') {
    return [party.name, `ИНН ${party.inn ?? ''} · ОГРН ${party.ogrn ?? ''}`];
  }
  return [
    party.name,
    `${party.documentType ? DOCUMENT_TYPE_LABELS[party.documentType] : ''} ${party.documentNumber ?? ''} · ${t.detail.birth(ruDate(party.birthDate))}`,
  ];
}

function EventDrawer({ eventId, onClose }: { eventId: string | null; onClose: () => void }) {
  const detail = usePledgeEvent(eventId);
  const data = detail.data;
  return (
    <Drawer
      anchor="right"
      open={Boolean(eventId)}
      onClose={onClose}
      // Above the app bar, which the layout lifts over the navigation drawer.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
    >
      <Box
        sx={{ width: { xs: '100vw', sm: 480 }, p: 3 }}
        role="region"
        aria-label={data ? t.detail.title(data.kindLabel, ruDate(data.notificationDate)) : undefined}
      >
        {!data ? (
          <Skeleton height={200} />
        ) : (
          <Stack spacing={2.5}>
            <div>
              <Typography variant="h6" component="h2">
                {t.detail.title(data.kindLabel, ruDate(data.notificationDate))}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {`${t.detail.source[data.source]}${data.rowNumber ? `, ${t.detail.row(data.rowNumber)}` : ''} · ${data.pledge.statusLabel}`}
              </Typography>
            </div>
            {data.lapse && <Alert severity="warning">{t.table.lapse(data.lapse.daysLeft)}</Alert>}
            <Section title={t.detail.pledgor} lines={partyLines(data.pledgor)} />
            <Section title={t.detail.pledgee} lines={partyLines(data.pledgee)} />
            <Section
              title={t.detail.contract}
              lines={[
                `${data.contract.name ?? ''} № ${data.contract.number} от ${ruDate(data.contract.date)}`.trim(),
                data.contract.endDate
                  ? `${texts.pledgeEventsRegistry.contractEndDate}: ${ruDate(data.contract.endDate)}`
                  : '',
              ].filter(Boolean)}
            />
            <Section
              title={t.detail.vehicles}
              lines={data.vehicles.map((v) => [vehicleText(v), v.description].filter(Boolean).join(' · '))}
            />
            {data.registeredNumber && (
              <Section title={t.detail.registeredNumber} lines={[data.registeredNumber]} />
            )}
            <Section
              title={t.detail.pledgeHistory}
              lines={data.pledgeHistory.map(
                (h) => `${ruDate(h.notificationDate)} — ${h.kindLabel} · ${h.statusLabel}`,
              )}
            />
            <Section
              title={t.detail.packageHistory}
              lines={
                data.packageHistory.length === 0
                  ? [t.detail.noPackage]
                  : data.packageHistory.map(
                      (h) =>
                        `${formatDateTime(h.createdAt)} — ${h.actionLabel}${h.user ? ` (${h.user.fullName})` : ''}${h.comment ? `: ${h.comment}` : ''}`,
                    )
              }
            />
            <Box>
              <Button onClick={onClose}>{texts.common.close}</Button>
            </Box>
          </Stack>
        )}
      </Box>
    </Drawer>
  );
}

function Section({ title, lines }: { title: string; lines: string[] }) {
  return (
    <div>
      <Typography variant="overline" color="text.secondary">
        {title}
      </Typography>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of text in a fixed order
        <Typography key={index} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {line}
        </Typography>
      ))}
    </div>
  );
}

function AddToPackageDialog({ eventIds, onClose }: { eventIds: string[]; onClose: (done: boolean) => void }) {
  const drafts = usePledgePackages({ page: 1, pageSize: 100, status: 'draft' });
  const [packageId, setPackageId] = useState('');
  const add = useAddPackageEvents({
    onSuccess: (updated) => {
      toast.success(`${updated.name}: ${t.packages.events(updated.eventsCount)}`);
      onClose(true);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const options = drafts.data?.items ?? [];
  return (
    <Dialog open onClose={() => onClose(false)} maxWidth="xs" fullWidth>
      <DialogTitle>{t.addDialog.title}</DialogTitle>
      <DialogContent>
        {drafts.isSuccess && options.length === 0 ? (
          <Alert severity="info">{t.addDialog.none}</Alert>
        ) : (
          <TextField
            select
            fullWidth
            label={t.addDialog.package}
            value={packageId}
            onChange={(event) => setPackageId(event.target.value)}
            sx={{ mt: 1 }}
          >
            {options.map((option) => (
              <MenuItem key={option.id} value={option.id}>
                {`№ ${option.number} · ${option.name}`}
              </MenuItem>
            ))}
          </TextField>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{texts.common.cancel}</Button>
        <Button
          variant="contained"
          disabled={!packageId}
          loading={add.isPending}
          onClick={() => add.mutate({ packageId, eventIds })}
        >
          {t.addDialog.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
