import DoneAllIcon from '@mui/icons-material/DoneAll';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { EVENT_SORT_KEYS, type EventSortKey, type MonitoringEvent } from '@pledgewatch/contract';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { SavedViewsMenu } from '@/components/saved-views/saved-views-menu';
import { CardSortField } from '@/components/ui/card-sort-field';
import { FilterDrawer } from '@/components/ui/filter-drawer';
import { Page } from '@/components/ui/page';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { texts } from '@/features/events/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { formatNumber } from '@/lib/format';
import { useEvents } from '../api/get-events';
import { useMarkEventsRead } from '../api/mark-events-read';
import { eventColumns } from './event-columns';
import { EventDetailDialog } from './event-detail-dialog';
import { EventsBulkActions } from './events-bulk-actions';
import { EventsFilters } from './events-filters';
import {
  activeFilterCount,
  hasFilters,
  naturalOrder,
  sortChanges,
  toEventsQuery,
  useEventsView,
} from './use-events-view';

const t = texts.events;

/** What the regular checks found, newest first unless sorted; filters, sort and page live in the URL. */
export default function EventsPage() {
  const { view, update, reset } = useEventsView();
  const events = useEvents(toEventsQuery(view));
  const mark = useMarkEventsRead({ onError: (error) => toast.error(getErrorMessage(error)) });
  const [opened, setOpened] = useState<MonitoringEvent | null>(null);
  const canWrite = useUser()?.role !== 'viewer';
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const items = events.data?.items ?? [];
  const listKey = JSON.stringify(toEventsQuery(view));
  // A choice belongs to the rows on screen: another page or filter starts afresh.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the list's query changes
  useEffect(() => setSelected(new Set()), [listKey]);
  const allSelected = items.length > 0 && items.every((event) => selected.has(event.id));
  const toggleSelected = (event: MonitoringEvent) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(event.id)) {
        next.add(event.id);
      }
      return next;
    });
  const unreadOnPage = items.filter((event) => !event.read).map((event) => event.id);

  const toggle = (event: MonitoringEvent) => mark.mutate({ ids: [event.id], read: !event.read });
  const sortBy = (column: EventSortKey, order: 'asc' | 'desc') => update(sortChanges(column, order));
  const columns = eventColumns({
    selection: canWrite
      ? {
          isSelected: (event) => selected.has(event.id),
          onToggle: toggleSelected,
          allSelected,
          onToggleAll: () => setSelected(allSelected ? new Set() : new Set(items.map((event) => event.id))),
        }
      : undefined,
    isPending: (event) => mark.isPending && (mark.variables?.ids.includes(event.id) ?? false),
    onToggleRead: toggle,
    onOpen: setOpened,
    view,
    onSort: sortBy,
  });

  return (
    <Page
      title={t.title}
      actions={
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <SavedViewsMenu list="events" />
          {events.data && (
            <Chip
              color={events.data.unread > 0 ? 'primary' : 'default'}
              label={t.unread(formatNumber(events.data.unread))}
            />
          )}
          <Button
            variant="outlined"
            startIcon={<DoneAllIcon />}
            disabled={unreadOnPage.length === 0}
            loading={mark.isPending && (mark.variables?.ids.length ?? 0) > 1}
            onClick={() =>
              mark.mutate({ ids: unreadOnPage, read: true }, { onSuccess: () => toast.success(t.markedPage) })
            }
          >
            {t.markPageRead}
          </Button>
        </Stack>
      }
    >
      <Paper variant="outlined">
        <FilterDrawer activeCount={activeFilterCount(view)}>
          <EventsFilters view={view} onChange={update} onReset={reset} />
        </FilterDrawer>
        {(view.itemId || view.runId) && (
          <Stack direction="row" spacing={1} sx={{ px: 2, pb: 2 }}>
            {view.itemId && <Chip label={t.filters.itemOnly} onDelete={() => update({ itemId: null })} />}
            {view.runId && <Chip label={t.filters.runOnly} onDelete={() => update({ runId: null })} />}
          </Stack>
        )}
        <EventsBulkActions
          view={view}
          selected={[...selected]}
          canWrite={canWrite}
          onDone={() => setSelected(new Set())}
        />
        <TableQueryState query={events} />
        <ResponsiveTable
          rows={items}
          columns={columns}
          getRowId={(event) => event.id}
          ariaLabel={t.title}
          dense
          rowOptions={(event) => ({
            testId: 'event-row',
            data: { read: event.read },
            sx: { '& td': { fontWeight: event.read ? undefined : 700 } },
          })}
          showEmpty={Boolean(events.data)}
          empty={hasFilters(view) ? t.emptyFiltered : t.empty}
          cardsHeader={
            // Cards have no column headers: the sort is a field of its own above them.
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', pt: 1.5, pb: 1 }}>
              <CardSortField
                label={t.sortField}
                options={EVENT_SORT_KEYS.map((column) => [column, t.columns[column]] as const)}
                value={view.sort}
                order={view.order}
                ascendingLabel={t.sortAscending}
                descendingLabel={t.sortDescending}
                onField={(column) => sortBy(column, naturalOrder(column))}
                onFlip={() => sortBy(view.sort, view.order === 'asc' ? 'desc' : 'asc')}
              />
            </Stack>
          }
        />
        <ServerPagination
          count={events.data?.total}
          page={view.page}
          pageSize={view.pageSize}
          onChange={(page, pageSize) => update({ page, pageSize })}
        />
      </Paper>
      <EventDetailDialog event={opened} onClose={() => setOpened(null)} />
    </Page>
  );
}
