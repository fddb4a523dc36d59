import DraftsOutlinedIcon from '@mui/icons-material/DraftsOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import MarkEmailUnreadOutlinedIcon from '@mui/icons-material/MarkEmailUnreadOutlined';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { EventSortKey, MonitoringEvent } from '@pledgewatch/contract';
import { Link as RouterLink } from 'react-router';
import type { ResponsiveColumn } from '@/components/ui/responsive-table';
import { SeverityChip } from '@/components/ui/severity-chip';
import { texts } from '@/features/events/texts';
import { formatDateTime } from '@/lib/format';
import { changeSummary } from './change-summary';
import { displayIdentifier, itemHref, kindLabel } from './event-item';
import { type EventsView, naturalOrder } from './use-events-view';

const t = texts.events;

type EventColumnsOptions = {
  /** Checkboxes to choose events for a bulk action (left out for a viewer). */
  selection?: {
    isSelected: (event: MonitoringEvent) => boolean;
    onToggle: (event: MonitoringEvent) => void;
    allSelected: boolean;
    onToggleAll: () => void;
  };
  isPending: (event: MonitoringEvent) => boolean;
  onToggleRead: (event: MonitoringEvent) => void;
  onOpen: (event: MonitoringEvent) => void;
  view: Pick<EventsView, 'sort' | 'order'>;
  onSort: (column: EventSortKey, order: EventsView['order']) => void;
};

const weightOf = (event: MonitoringEvent) => (event.read ? undefined : 700);

/**
 * A column sorted on the server: its header sorts by it (a new column starts in its natural direction,
 * the sorted one flips); a card shows the plain label.
 */
const sortable = (
  column: EventSortKey,
  { view, onSort }: Pick<EventColumnsOptions, 'view' | 'onSort'>,
): Pick<ResponsiveColumn<MonitoringEvent>, 'id' | 'header' | 'label' | 'sortDirection'> => {
  const active = view.sort === column;
  const next = active ? (view.order === 'asc' ? 'desc' : 'asc') : naturalOrder(column);
  return {
    id: column,
    label: t.columns[column],
    sortDirection: active ? view.order : false,
    header: (
      <TableSortLabel
        active={active}
        direction={active ? view.order : naturalOrder(column)}
        onClick={() => onSort(column, next)}
        aria-label={t.sortBy(t.columns[column])}
      >
        {t.columns[column]}
      </TableSortLabel>
    ),
  };
};

/** The events' columns; on a phone card what changed (before → after) comes first. */
export function eventColumns(options: EventColumnsOptions): ResponsiveColumn<MonitoringEvent>[] {
  const { isPending, onToggleRead, onOpen, selection } = options;
  const select: ResponsiveColumn<MonitoringEvent>[] = selection
    ? [
        {
          id: 'select',
          header: (
            <Checkbox
              checked={selection.allSelected}
              onChange={selection.onToggleAll}
              slotProps={{ input: { 'aria-label': t.bulk.selectAll } }}
            />
          ),
          card: 'leading',
          padding: 'checkbox',
          stopClick: true,
          cell: (event) => (
            <Checkbox
              checked={selection.isSelected(event)}
              onChange={() => selection.onToggle(event)}
              slotProps={{ input: { 'aria-label': t.bulk.select(displayIdentifier(event.item)) } }}
            />
          ),
        },
      ]
    : [];
  return [
    ...select,
    {
      id: 'item',
      header: t.columns.item,
      card: 'title',
      cell: (event) => (
        <>
          <Link
            component={RouterLink}
            to={itemHref(event.item)}
            sx={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              fontWeight: weightOf(event),
              whiteSpace: 'nowrap',
            }}
          >
            {displayIdentifier(event.item)}
          </Link>
          <Typography variant="caption" component="p" color="text.secondary">
            {[event.item.label, event.item.contractNumber && t.contract(event.item.contractNumber)]
              .filter(Boolean)
              .join(' · ') || kindLabel(event.item)}
          </Typography>
        </>
      ),
    },
    {
      ...sortable('type', options),
      cell: (event) => (
        <>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="body2" sx={{ fontWeight: weightOf(event) }}>
              {event.typeLabel}
            </Typography>
            {event.demo && <Chip size="small" color="secondary" label={t.demo} />}
          </Stack>
          {event.firstCheck && (
            <Typography variant="caption" color="text.secondary">
              {t.firstCheck}
            </Typography>
          )}
        </>
      ),
    },
    {
      ...sortable('severity', options),
      cell: (event) => <SeverityChip severity={event.severity} />,
    },
    { ...sortable('source', options), card: 'secondary', cell: (event) => event.sourceName },
    {
      id: 'change',
      header: t.columns.change,
      card: 'beforeAfter',
      cellSx: { minWidth: 220 },
      cell: (event) =>
        changeSummary(event.before, event.after).map((line) => (
          <Typography
            key={line}
            variant="body2"
            sx={{ fontWeight: weightOf(event), wordBreak: 'break-word' }}
          >
            {line}
          </Typography>
        )),
    },
    {
      ...sortable('detectedAt', options),
      card: 'secondary',
      cellSx: { whiteSpace: 'nowrap' },
      cell: (event) => formatDateTime(event.detectedAt),
      cardCell: (event) => t.detectedAtCard(formatDateTime(event.detectedAt)),
    },
    {
      id: 'actions',
      header: texts.common.actions,
      align: 'right',
      card: 'actions',
      cellSx: { whiteSpace: 'nowrap' },
      cell: (event) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Tooltip title={t.detail.open}>
            <IconButton size="small" aria-label={t.detail.open} onClick={() => onOpen(event)}>
              <InfoOutlinedIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={event.read ? t.markUnread : t.markRead}>
            <span>
              <IconButton
                size="small"
                disabled={isPending(event)}
                aria-label={event.read ? t.markUnread : t.markRead}
                onClick={() => onToggleRead(event)}
              >
                {event.read ? (
                  <MarkEmailUnreadOutlinedIcon fontSize="small" />
                ) : (
                  <DraftsOutlinedIcon fontSize="small" />
                )}
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      ),
    },
  ];
}
