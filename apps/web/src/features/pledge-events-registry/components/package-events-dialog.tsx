import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { PledgePackage } from '@pledgewatch/contract';
import { useId, useState } from 'react';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableEmptyRow, TableQueryState } from '@/components/ui/table-states';
import { texts } from '@/features/pledge-events-registry/texts';
import { usePledgeEvents } from '../api/get-pledge-events';
import { ruDate, STATUS_COLORS, vehicleText } from './pledge-event-format';

const t = texts.pledgeEventsRegistry;

const PAGE_SIZE = 10;

const HIDE_ON_PHONE = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** A package opened: its events, paged on the server (a file's package may hold thousands). */
export function PackageEventsDialog({
  item,
  onClose,
  onOpenEvent,
}: {
  item: PledgePackage;
  onClose: () => void;
  onOpenEvent: (eventId: string) => void;
}) {
  const titleId = useId();
  const [page, setPage] = useState(1);
  const events = usePledgeEvents({ page, pageSize: PAGE_SIZE, packageId: item.id });
  const items = events.data?.items ?? [];
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      // On a phone the list takes the screen's width (its table scrolls sideways inside).
      sx={{
        '& .MuiDialog-paper': { mx: { xs: 1, sm: 4 }, width: { xs: 'calc(100% - 16px)', sm: undefined } },
      }}
    >
      <DialogTitle id={titleId}>{t.packages.eventsTitle(item.name)}</DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <TableQueryState query={events} />
        <TableContainer>
          <Table size="small" aria-label={t.packages.eventsTitle(item.name)}>
            <TableHead>
              <TableRow>
                <TableCell>{t.table.date}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{t.table.kind}</TableCell>
                <TableCell>{t.table.pledgor}</TableCell>
                <TableCell>{t.table.vehicles}</TableCell>
                <TableCell>{t.table.package}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((event) => (
                <TableRow
                  key={event.id}
                  hover
                  data-testid="package-event-row"
                  sx={{ cursor: 'pointer' }}
                  onClick={() => onOpenEvent(event.id)}
                >
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{ruDate(event.notificationDate)}</TableCell>
                  <TableCell sx={HIDE_ON_PHONE}>{event.kindLabel}</TableCell>
                  <TableCell>{event.pledgor.name}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                    {event.vehicles[0] ? vehicleText(event.vehicles[0]) : texts.common.dash}
                    {event.vehicles.length > 1 ? ` (${t.table.more(event.vehicles.length - 1)})` : ''}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={STATUS_COLORS[event.status]}
                      label={event.statusLabel}
                    />
                  </TableCell>
                </TableRow>
              ))}
              {events.data && items.length === 0 && (
                <TableEmptyRow colSpan={5}>{t.packages.eventsEmpty}</TableEmptyRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <ServerPagination
          count={events.data?.total}
          page={page}
          pageSize={PAGE_SIZE}
          onChange={(nextPage) => setPage(nextPage)}
          rowsPerPageOptions={[PAGE_SIZE]}
          labelDisplayedRows={({ from, to, count }) => t.table.of(from, to, count)}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{texts.common.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
