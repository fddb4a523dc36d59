import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { findingLines, type MonitoringEvent } from '@pledgewatch/contract';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { DefinitionList } from '@/components/ui/definition-list';
import { SeverityChip } from '@/components/ui/severity-chip';
import { paths } from '@/config/paths';
import { texts } from '@/features/events/texts';
import { formatDateTime } from '@/lib/format';
import { displayIdentifier, itemHref, kindLabel } from './event-item';

const t = texts.events.detail;

/** One record as label–value lines, or a word saying there was none. */
function RecordBlock({ title, record }: { title: string; record: Record<string, unknown> | null }) {
  const lines = record ? findingLines(record) : [];
  return (
    <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }} data-testid={`event-detail-${title}`}>
      <Typography variant="overline" color="text.secondary">
        {title}
      </Typography>
      {lines.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {record ? t.emptyRecord : t.noRecord}
        </Typography>
      ) : (
        <DefinitionList lines={lines} dense />
      )}
    </Stack>
  );
}

/** Everything about one event: its fields, the record before and after, the item, the source, links. */
export function EventDetailDialog({
  event,
  onClose,
}: {
  event: MonitoringEvent | null;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog
      open={event !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      sx={{
        '& .MuiDialog-paper': { mx: { xs: 1, sm: 4 }, width: { xs: 'calc(100% - 16px)', sm: undefined } },
      }}
    >
      {event && (
        <>
          <DialogTitle id={titleId}>{event.typeLabel}</DialogTitle>
          <DialogContent dividers>
            <Stack spacing={2.5}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <SeverityChip severity={event.severity} />
                {event.demo && (
                  <Typography variant="caption" color="secondary">
                    {texts.events.demo}
                  </Typography>
                )}
              </Stack>
              <DefinitionList
                lines={[
                  { label: t.item, value: `${kindLabel(event.item)} ${displayIdentifier(event.item)}` },
                  ...(event.item.label ? [{ label: t.label, value: event.item.label }] : []),
                  ...(event.item.contractNumber
                    ? [{ label: t.contract, value: event.item.contractNumber }]
                    : []),
                  { label: t.source, value: event.sourceName },
                  { label: t.findingKey, value: event.findingKey },
                  { label: t.detectedAt, value: formatDateTime(event.detectedAt) },
                  { label: t.firstCheck, value: event.firstCheck ? t.yes : t.no },
                  { label: t.read, value: event.read ? t.yes : t.no },
                ]}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <RecordBlock title={t.before} record={event.before} />
                <RecordBlock title={t.after} record={event.after} />
              </Stack>
              <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
                <Link component={RouterLink} to={itemHref(event.item)}>
                  {t.openItem}
                </Link>
                <Link
                  component={RouterLink}
                  to={`${paths.monitoringEvents.getHref()}?${new URLSearchParams({ itemId: event.item.id })}`}
                  onClick={onClose}
                >
                  {t.itemEvents}
                </Link>
                {event.runId && (
                  <Link
                    component={RouterLink}
                    to={`${paths.monitoringEvents.getHref()}?${new URLSearchParams({ runId: event.runId })}`}
                    onClick={onClose}
                  >
                    {t.runEvents}
                  </Link>
                )}
              </Stack>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{texts.common.close}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
