import DraftsOutlinedIcon from '@mui/icons-material/DraftsOutlined';
import MarkEmailUnreadOutlinedIcon from '@mui/icons-material/MarkEmailUnreadOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { MonitoringEvent } from '@pledgewatch/contract';
import { DOCUMENT_TYPES, formatDocument, isDocumentType } from '@pledgewatch/identifiers';
import { Link as RouterLink } from 'react-router';
import type { ResponsiveColumn } from '@/components/ui/responsive-table';
import { SeverityChip } from '@/components/ui/severity-chip';
import { paths } from '@/config/paths';
import { texts } from '@/features/events/texts';
import { formatMoscowDateTime } from '@/lib/format';
import { changeSummary } from './change-summary';

const t = texts.events;

const itemHref = (item: MonitoringEvent['item']) =>
  `${paths.monitoringItems.getHref()}?${new URLSearchParams({ ...(item.kind === 'document' ? { entity: 'document' } : {}), item: item.id })}`;

/** «45 06 123456» for documents, the VIN as is. */
const displayIdentifier = (item: MonitoringEvent['item']) =>
  item.kind === 'document' && isDocumentType(item.documentType)
    ? formatDocument(item.documentType, item.identifier)
    : item.identifier;

const kindLabel = (item: MonitoringEvent['item']) =>
  item.kind === 'document' && isDocumentType(item.documentType) ? DOCUMENT_TYPES[item.documentType] : t.vin;

type EventColumnsOptions = {
  isPending: (event: MonitoringEvent) => boolean;
  onToggleRead: (event: MonitoringEvent) => void;
};

const weightOf = (event: MonitoringEvent) => (event.read ? undefined : 700);

/** The events' columns; on a phone card what changed (before → after) comes first. */
export function eventColumns({
  isPending,
  onToggleRead,
}: EventColumnsOptions): ResponsiveColumn<MonitoringEvent>[] {
  return [
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
      id: 'type',
      header: t.columns.type,
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
      id: 'severity',
      header: t.columns.severity,
      cell: (event) => <SeverityChip severity={event.severity} />,
    },
    { id: 'source', header: t.columns.source, card: 'secondary', cell: (event) => event.sourceName },
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
      id: 'detectedAt',
      header: t.columns.detectedAt,
      card: 'secondary',
      cellSx: { whiteSpace: 'nowrap' },
      cell: (event) => formatMoscowDateTime(event.detectedAt),
      cardCell: (event) => t.detectedAtCard(formatMoscowDateTime(event.detectedAt)),
    },
    {
      id: 'actions',
      header: texts.common.actions,
      align: 'right',
      card: 'actions',
      cell: (event) => (
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
      ),
    },
  ];
}
