import DraftsOutlinedIcon from '@mui/icons-material/DraftsOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import MarkEmailUnreadOutlinedIcon from '@mui/icons-material/MarkEmailUnreadOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { MonitoringEvent } from '@pledgewatch/contract';
import { Link as RouterLink } from 'react-router';
import { SeverityChip } from '@/components/ui/severity-chip';
import { texts } from '@/features/events/texts';
import { formatMoscowDateTime } from '@/lib/format';
import { changeSummary } from './change-summary';
import { displayIdentifier, itemHref, kindLabel } from './event-item';

const t = texts.events;

type EventRowProps = {
  event: MonitoringEvent;
  pending: boolean;
  onToggleRead: (event: MonitoringEvent) => void;
  onOpen: (event: MonitoringEvent) => void;
};

/** One event; unread ones are bold until marked read. */
export function EventRow({ event, pending, onToggleRead, onOpen }: EventRowProps) {
  const weight = event.read ? undefined : 700;
  const summary = changeSummary(event.before, event.after);
  return (
    <TableRow hover data-testid="event-row" data-read={event.read} sx={{ '& td': { fontWeight: weight } }}>
      <TableCell>
        <Link
          component={RouterLink}
          to={itemHref(event.item)}
          sx={{
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontWeight: weight,
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
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ fontWeight: weight }}>
            {event.typeLabel}
          </Typography>
          {event.demo && <Chip size="small" color="secondary" label={t.demo} />}
        </Stack>
        {event.firstCheck && (
          <Typography variant="caption" color="text.secondary">
            {t.firstCheck}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <SeverityChip severity={event.severity} />
      </TableCell>
      <TableCell>{event.sourceName}</TableCell>
      <TableCell sx={{ minWidth: 220 }}>
        {summary.map((line) => (
          <Typography key={line} variant="body2" sx={{ fontWeight: weight, wordBreak: 'break-word' }}>
            {line}
          </Typography>
        ))}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMoscowDateTime(event.detectedAt)}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <Tooltip title={t.detail.open}>
          <IconButton size="small" aria-label={t.detail.open} onClick={() => onOpen(event)}>
            <InfoOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={event.read ? t.markUnread : t.markRead}>
          <span>
            <IconButton
              size="small"
              disabled={pending}
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
      </TableCell>
    </TableRow>
  );
}
