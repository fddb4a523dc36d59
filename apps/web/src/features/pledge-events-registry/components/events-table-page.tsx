import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { SavedViewsMenu } from '@/components/saved-views/saved-views-menu';
import { FilterDrawer } from '@/components/ui/filter-drawer';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { texts } from '@/features/pledge-events-registry/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUrlState } from '@/lib/use-url-state';
import { useCreatePledgePackage } from '../api/create-pledge-package';
import { usePledgeEvents } from '../api/get-pledge-events';
import { AddToPackageDialog } from './add-to-package-dialog';
import { isFree, registryEventColumns, SelectAllCheckbox } from './event-columns';
import { EventDrawer } from './event-drawer';
import { activeFilterCount, RegistryFiltersForm } from './registry-filters';
import { useRegistryView } from './use-registry-view';

const t = texts.pledgeEventsRegistry;

/** The organisation's pledge notifications: filtered and paged on the server, chosen into packages. */
export default function EventsTablePage() {
  const user = useUser();
  const canWrite = user?.role !== 'viewer';
  // Filters and page live in the URL (use-registry-view), so a link or a saved view opens this list.
  const { view, setFilters: set, setPagination: onChange } = useRegistryView();
  const { page, pageSize } = view;
  // One object per URL change, so the debounce below settles instead of restarting every render.
  const filters = useMemo(() => {
    const { page: _page, pageSize: _pageSize, ...rest } = view;
    return rest;
  }, [view]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // The open notification lives in the URL, so a link (the header search) opens it.
  const [params, setParams] = useUrlState();
  const openId = params.get('event');
  const setOpenId = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) {
          next.set('event', id);
        } else {
          next.delete('event');
        }
        return next;
      },
      { replace: true },
    );
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

  const items = events.data?.items ?? [];
  const free = items.filter(isFree);
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
  const toggleAll = () => setSelected(allFreeSelected ? new Set() : new Set(free.map((event) => event.id)));
  const columns = registryEventColumns({
    canWrite,
    isSelected: (event) => selected.has(event.id),
    onToggle: (event) => toggle(event.id),
    allSelected: allFreeSelected,
    anyFree: free.length > 0,
    onToggleAll: toggleAll,
  });

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <SavedViewsMenu list="registry" />
      </Stack>
      <Paper variant="outlined">
        <FilterDrawer activeCount={activeFilterCount(filters)}>
          <RegistryFiltersForm filters={filters} set={set} />
        </FilterDrawer>
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
          <ResponsiveTable
            rows={items}
            columns={columns}
            getRowId={(event) => event.id}
            ariaLabel={texts.pages.pledgesEventsRegistry.tabTable}
            dense
            rowOptions={(event) => ({
              testId: 'pledge-event-row',
              data: { kind: event.kind },
              selected: selected.has(event.id),
              onClick: () => setOpenId(event.id),
            })}
            cardsHeader={
              canWrite && (
                <FormControlLabel
                  sx={{ py: 1 }}
                  control={
                    <SelectAllCheckbox
                      allSelected={allFreeSelected}
                      anyFree={free.length > 0}
                      onToggleAll={toggleAll}
                    />
                  }
                  label={t.table.selectAll}
                />
              )
            }
          />
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
