import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
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
  EVENT_SUBMISSION_STATUS_LABELS,
  EVENT_SUBMISSION_STATUSES,
  PLEDGE_EVENT_KIND_LABELS,
  PLEDGE_EVENT_KINDS,
} from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { DateField } from '@/components/ui/date-field';
import { ServerPagination } from '@/components/ui/server-pagination';
import { texts } from '@/features/pledge-events-registry/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useCreatePledgePackage } from '../api/create-pledge-package';
import { type PledgeEventsFilter, usePledgeEvents } from '../api/get-pledge-events';
import { AddToPackageDialog } from './add-to-package-dialog';
import { EventDrawer } from './event-drawer';
import { EventRow } from './event-row';

const t = texts.pledgeEventsRegistry;

type Filters = Omit<PledgeEventsFilter, 'page' | 'pageSize'>;

/** A single-choice filter as the query's list: the value when it is one of `values`, else no filter. */
const oneOf = <T extends string>(values: readonly T[], value: string): T[] | undefined =>
  values.includes(value as T) ? [value as T] : undefined;

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
  // Events in no package, or in one the registry rejected, may go into a new package.
  const free = items.filter((event) => event.package === null || event.status === 'rejected');
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
              value={filters.kind?.[0] ?? ''}
              onChange={(event) => set({ kind: oneOf(PLEDGE_EVENT_KINDS, event.target.value) })}
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
              value={filters.status?.[0] ?? ''}
              onChange={(event) => set({ status: oneOf(EVENT_SUBMISSION_STATUSES, event.target.value) })}
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
            <DateField
              size="small"
              label={t.filters.from}
              value={filters.from ?? ''}
              onChange={(value) => set({ from: value || undefined })}
            />
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <DateField
              size="small"
              label={t.filters.to}
              value={filters.to ?? ''}
              onChange={(value) => set({ to: value || undefined })}
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
