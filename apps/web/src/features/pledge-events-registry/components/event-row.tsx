import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PledgeEvent } from '@pledgewatch/contract';
import { texts } from '@/features/pledge-events-registry/texts';

import { ruDate, STATUS_COLORS, vehicleText } from './pledge-event-format';

const t = texts.pledgeEventsRegistry;

export function EventRow({
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
            disabled={event.package !== null && event.status !== 'rejected'}
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
          {event.status === 'rejected' && event.lastRejection?.reason && (
            <Typography variant="caption" color="error" data-testid="rejection-reason">
              {t.detail.rejectionReason(event.lastRejection.reason)}
            </Typography>
          )}
        </Stack>
      </TableCell>
    </TableRow>
  );
}
