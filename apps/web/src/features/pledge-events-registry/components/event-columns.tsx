import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PledgeEvent } from '@pledgewatch/contract';
import type { ResponsiveColumn } from '@/components/ui/responsive-table';
import { texts } from '@/features/pledge-events-registry/texts';
import { ruDate, STATUS_COLORS, vehicleText } from './pledge-event-format';

const t = texts.pledgeEventsRegistry;

/** Shown on desktops from `md` up only: the narrow table keeps the columns one acts on. */
const wideOnly = { display: { xs: 'none', md: 'table-cell' } };

/** Events in no package, or in one the registry rejected, may go into a new package. */
export const isFree = (event: PledgeEvent) => event.package === null || event.status === 'rejected';

const registrationOf = (event: PledgeEvent) =>
  event.registeredNumber ?? event.registrationNumber ?? event.pledge.registrationNumber;

const rejection = (event: PledgeEvent) =>
  event.status === 'rejected' &&
  event.lastRejection?.reason && (
    <Typography variant="caption" color="error" data-testid="rejection-reason">
      {t.detail.rejectionReason(event.lastRejection.reason)}
    </Typography>
  );

/** The notification's date: in the card's grey caption on a phone (shared with a package's list). */
export const dateColumn: ResponsiveColumn<PledgeEvent> = {
  id: 'date',
  header: t.table.date,
  card: 'secondary',
  cellSx: { whiteSpace: 'nowrap' },
  cell: (event) => ruDate(event.notificationDate),
};

/** The submission status and the package; the table adds the rejection, a card opens with it instead. */
function SubmissionStatus({ event, withRejection = false }: { event: PledgeEvent; withRejection?: boolean }) {
  return (
    <Stack
      spacing={0.5}
      sx={withRejection ? { alignItems: 'flex-start' } : { alignItems: 'flex-end', textAlign: 'right' }}
    >
      <Chip size="small" variant="outlined" color={STATUS_COLORS[event.status]} label={event.statusLabel} />
      {event.package && (
        <Typography variant="caption" color="text.secondary">
          {event.package.name}
        </Typography>
      )}
      {withRejection && rejection(event)}
    </Stack>
  );
}

/** The kind with the registry's number under it; bold where it heads a card. */
function KindCell({ event, bold = false }: { event: PledgeEvent; bold?: boolean }) {
  return (
    <>
      <Typography variant="body2" component="span" sx={{ fontWeight: bold ? 600 : undefined }}>
        {event.kindLabel}
      </Typography>{' '}
      <Typography variant="caption" component="span" color="text.secondary">
        {event.form}
      </Typography>
      {registrationOf(event) && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', whiteSpace: 'nowrap' }}>
          {registrationOf(event)}
        </Typography>
      )}
    </>
  );
}

type SelectionOptions = {
  isSelected: (event: PledgeEvent) => boolean;
  onToggle: (event: PledgeEvent) => void;
  allSelected: boolean;
  anyFree: boolean;
  onToggleAll: () => void;
};

/** The «select the page» checkbox: the table's header cell, above the cards on phones. */
export function SelectAllCheckbox({
  allSelected,
  anyFree,
  onToggleAll,
}: Pick<SelectionOptions, 'allSelected' | 'anyFree' | 'onToggleAll'>) {
  return (
    <Checkbox
      checked={allSelected}
      disabled={!anyFree}
      onChange={onToggleAll}
      slotProps={{ input: { 'aria-label': t.table.selectAll } }}
    />
  );
}

const selectColumn = (options: SelectionOptions): ResponsiveColumn<PledgeEvent> => ({
  id: 'select',
  header: <SelectAllCheckbox {...options} />,
  card: 'leading',
  padding: 'checkbox',
  stopClick: true,
  cell: (event) => (
    <Checkbox
      checked={options.isSelected(event)}
      disabled={!isFree(event)}
      onChange={() => options.onToggle(event)}
      slotProps={{ input: { 'aria-label': t.table.select(`${event.kindLabel} ${event.contract.number}`) } }}
    />
  ),
});

/** The registry's columns; a phone card is headed by the kind and its number, the status beside. */
export function registryEventColumns(
  options: SelectionOptions & { canWrite: boolean },
): ResponsiveColumn<PledgeEvent>[] {
  const columns: ResponsiveColumn<PledgeEvent>[] = [
    dateColumn,
    {
      id: 'kind',
      header: t.table.kind,
      card: 'title',
      cell: (event) => <KindCell event={event} />,
      cardCell: (event) => <KindCell event={event} bold />,
    },
    { id: 'pledgor', header: t.table.pledgor, cell: (event) => event.pledgor.name },
    {
      id: 'contract',
      header: t.table.contract,
      sx: wideOnly,
      cell: (event) => `№ ${event.contract.number} от ${ruDate(event.contract.date)}`,
    },
    {
      id: 'vehicles',
      header: t.table.vehicles,
      cellSx: { fontFamily: 'monospace', whiteSpace: 'nowrap' },
      cell: (event) => {
        const [first, ...rest] = event.vehicles;
        return (
          <>
            {first ? vehicleText(first) : texts.common.dash}
            {rest.length > 0 && (
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                {t.table.more(rest.length)}
              </Typography>
            )}
          </>
        );
      },
      cardCell: (event) => {
        const [first, ...rest] = event.vehicles;
        return (
          <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace' }}>
            {first ? vehicleText(first) : texts.common.dash}
            {rest.length > 0 && ` ${t.table.more(rest.length)}`}
          </Typography>
        );
      },
    },
    {
      id: 'pledge',
      header: t.table.pledge,
      sx: wideOnly,
      card: 'primary',
      cell: (event) => (
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
      ),
    },
    {
      id: 'package',
      header: t.table.package,
      card: 'actions',
      cell: (event) => <SubmissionStatus event={event} withRejection />,
      cardCell: (event) => <SubmissionStatus event={event} />,
    },
    {
      // The rejection sits under the status in the table; on a card it opens the card, in full width.
      id: 'rejection',
      header: '',
      card: 'beforeAfter',
      sx: { display: 'none' },
      cell: () => null,
      cardCell: rejection,
    },
  ];
  return options.canWrite ? [selectColumn(options), ...columns] : columns;
}
