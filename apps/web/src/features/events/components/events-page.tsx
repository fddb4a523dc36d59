import DoneAllIcon from '@mui/icons-material/DoneAll';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { EventSortKey, MonitoringEvent } from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Page } from '@/components/ui/page';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableEmptyRow, TableQueryState } from '@/components/ui/table-states';
import { texts } from '@/features/events/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { useEvents } from '../api/get-events';
import { useMarkEventsRead } from '../api/mark-events-read';
import { EventDetailDialog } from './event-detail-dialog';
import { EventRow } from './event-row';
import { EventsFilters } from './events-filters';
import { type EventsView, hasFilters, toEventsQuery, useEventsView } from './use-events-view';

const t = texts.events;

/** What the regular checks found, newest first unless sorted; filters, sort and page live in the URL. */
export default function EventsPage() {
  const { view, update, reset } = useEventsView();
  const events = useEvents(toEventsQuery(view));
  const mark = useMarkEventsRead({ onError: (error) => toast.error(getErrorMessage(error)) });
  const [opened, setOpened] = useState<MonitoringEvent | null>(null);
  const items = events.data?.items ?? [];
  const unreadOnPage = items.filter((event) => !event.read).map((event) => event.id);

  const toggle = (event: MonitoringEvent) => mark.mutate({ ids: [event.id], read: !event.read });

  return (
    <Page
      title={t.title}
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
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
        <EventsFilters view={view} onChange={update} onReset={reset} />
        {(view.itemId || view.runId) && (
          <Stack direction="row" spacing={1} sx={{ px: 2, pb: 2 }}>
            {view.itemId && <Chip label={t.filters.itemOnly} onDelete={() => update({ itemId: null })} />}
            {view.runId && <Chip label={t.filters.runOnly} onDelete={() => update({ runId: null })} />}
          </Stack>
        )}
        <TableQueryState query={events} />
        <TableContainer>
          <Table size="small" aria-label={t.title}>
            <TableHead>
              <TableRow>
                <TableCell>{t.columns.item}</TableCell>
                <SortableHeader column="type" view={view} onSort={update} />
                <SortableHeader column="severity" view={view} onSort={update} />
                <SortableHeader column="source" view={view} onSort={update} />
                <TableCell>{t.columns.change}</TableCell>
                <SortableHeader column="detectedAt" view={view} onSort={update} />
                <TableCell align="right">{texts.common.actions}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((event) => (
                <EventRow
                  key={event.id}
                  event={event}
                  pending={mark.isPending && (mark.variables?.ids.includes(event.id) ?? false)}
                  onToggleRead={toggle}
                  onOpen={setOpened}
                />
              ))}
              {events.data && items.length === 0 && (
                <TableEmptyRow colSpan={7}>{hasFilters(view) ? t.emptyFiltered : t.empty}</TableEmptyRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
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

/**
 * A column header that sorts the list on the server. A new column starts in its natural direction
 * (time and importance: highest first; type and source: A→Z); the sorted one flips.
 */
function SortableHeader({
  column,
  view,
  onSort,
}: {
  column: EventSortKey;
  view: EventsView;
  onSort: (changes: { sort: string | null; order: string | null }) => void;
}) {
  const active = view.sort === column;
  const natural = column === 'detectedAt' || column === 'severity' ? 'desc' : 'asc';
  const next = active ? (view.order === 'asc' ? 'desc' : 'asc') : natural;
  return (
    <TableCell sortDirection={active ? view.order : false}>
      <TableSortLabel
        active={active}
        direction={active ? view.order : natural}
        onClick={() =>
          onSort(
            column === 'detectedAt' && next === 'desc'
              ? { sort: null, order: null }
              : { sort: column, order: next },
          )
        }
        aria-label={t.sortBy(t.columns[column])}
      >
        {t.columns[column]}
      </TableSortLabel>
    </TableCell>
  );
}
