import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { PledgeEvent, PledgePackage } from '@pledgewatch/contract';
import { useId, useState } from 'react';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { texts } from '@/features/pledge-events-registry/texts';
import { usePledgeEvents } from '../api/get-pledge-events';
import { dateColumn } from './event-columns';
import { STATUS_COLORS, vehicleText } from './pledge-event-format';

const t = texts.pledgeEventsRegistry;

const PAGE_SIZE = 10;

/** A package's events: on a phone card the kind heads it with the status beside, the date below. */
const columns: ResponsiveColumn<PledgeEvent>[] = [
  dateColumn,
  { id: 'kind', header: t.table.kind, card: 'title', cell: (event) => event.kindLabel },
  { id: 'pledgor', header: t.table.pledgor, cell: (event) => event.pledgor.name },
  {
    id: 'vehicles',
    header: t.table.vehicles,
    cellSx: { fontFamily: 'monospace', whiteSpace: 'nowrap' },
    cell: (event) =>
      `${event.vehicles[0] ? vehicleText(event.vehicles[0]) : texts.common.dash}${
        event.vehicles.length > 1 ? ` (${t.table.more(event.vehicles.length - 1)})` : ''
      }`,
  },
  {
    id: 'status',
    header: t.table.package,
    card: 'actions',
    cell: (event) => (
      <Chip size="small" variant="outlined" color={STATUS_COLORS[event.status]} label={event.statusLabel} />
    ),
  },
];

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
      // On a phone the list of cards takes the screen's width.
      sx={{
        '& .MuiDialog-paper': { mx: { xs: 1, sm: 4 }, width: { xs: 'calc(100% - 16px)', sm: undefined } },
      }}
    >
      <DialogTitle id={titleId}>{t.packages.eventsTitle(item.name)}</DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <TableQueryState query={events} />
        <ResponsiveTable
          rows={items}
          columns={columns}
          getRowId={(event) => event.id}
          ariaLabel={t.packages.eventsTitle(item.name)}
          rowOptions={(event) => ({ testId: 'package-event-row', onClick: () => onOpenEvent(event.id) })}
          showEmpty={Boolean(events.data)}
          empty={t.packages.eventsEmpty}
        />
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
