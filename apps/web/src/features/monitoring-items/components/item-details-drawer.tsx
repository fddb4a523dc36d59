import CloseIcon from '@mui/icons-material/Close';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ITEM_ORIGIN_LABELS, type ItemStatus, type MonitoringItem, SEVERITIES } from '@pledgewatch/contract';
import type { ReactNode } from 'react';
import { texts } from '@/features/monitoring-items/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useItem } from '../api/get-item';
import { useItemEvents } from '../api/get-item-events';
import { useItemFindings } from '../api/get-item-findings';
import { ItemStatusChip } from './item-status-chip';
import { CheckDigitWarning, describeVin } from './vin-decoding-text';

const t = texts.monitoringItems;

type ItemDetailsDrawerProps = {
  itemId: string | null;
  canWrite: boolean;
  onClose: () => void;
  onEdit: (item: MonitoringItem) => void;
  onStatus: (item: MonitoringItem, status: ItemStatus) => void;
};

/** One item with its decoding, what the sources found and its events; opened from the table. */
export function ItemDetailsDrawer({ itemId, canWrite, onClose, onEdit, onStatus }: ItemDetailsDrawerProps) {
  return (
    <Drawer
      anchor="right"
      open={Boolean(itemId)}
      onClose={onClose}
      // Above the app bar, which the layout lifts over the navigation drawer.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 480 } } } }}
    >
      {itemId && (
        <ItemDetails
          itemId={itemId}
          canWrite={canWrite}
          onClose={onClose}
          onEdit={onEdit}
          onStatus={onStatus}
        />
      )}
    </Drawer>
  );
}

function ItemDetails({
  itemId,
  canWrite,
  onClose,
  onEdit,
  onStatus,
}: ItemDetailsDrawerProps & { itemId: string }) {
  const item = useItem(itemId);
  const data = item.data;

  return (
    <Box role="region" aria-label={t.detailsTitle} data-testid="item-details">
      <Stack direction="row" sx={{ alignItems: 'center', px: 2.5, py: 1.5, gap: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t.detailsTitle}
        </Typography>
        <IconButton aria-label={texts.common.close} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Box sx={{ p: 2.5 }}>
        {item.isPending && (
          <Stack spacing={1}>
            <Skeleton height={40} />
            <Skeleton height={24} />
            <Skeleton height={24} />
          </Stack>
        )}
        {item.isError && <Alert severity="error">{getErrorMessage(item.error)}</Alert>}
        {data && (
          <Stack spacing={3}>
            <Box>
              <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography
                  variant="h5"
                  component="p"
                  sx={{
                    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                    overflowWrap: 'anywhere',
                  }}
                >
                  {data.displayIdentifier}
                </Typography>
                {data.vin && <CheckDigitWarning vin={data.vin} />}
              </Stack>
              <Typography color="text.secondary">
                {data.vin ? describeVin(data.vin) : data.documentTypeLabel}
              </Typography>
              {data.vin && !data.vin.checkDigitValid && (
                <Alert severity="warning" sx={{ mt: 1.5 }}>
                  {data.vin.warning ?? t.checkDigitWarning(data.vin.checkDigitExpected)}
                </Alert>
              )}
            </Box>

            <Box
              component="dl"
              sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(120px, auto) 1fr', gap: 1 }}
            >
              <Field label={t.status}>
                <ItemStatusChip status={data.status} />
              </Field>
              <Field label={t.label}>{data.label ?? texts.common.dash}</Field>
              <Field label={t.contractNumber}>{data.contractNumber ?? texts.common.dash}</Field>
              <Field label={t.pledgorName}>{data.pledgorName ?? texts.common.dash}</Field>
              {data.vin && (
                <>
                  <Field label={t.wmi}>{data.vin.wmi}</Field>
                  <Field label={t.manufacturer}>{data.vin.manufacturer ?? texts.common.dash}</Field>
                  <Field label={t.country}>
                    {[data.vin.region, data.vin.country].filter(Boolean).join(', ') || texts.common.dash}
                  </Field>
                  <Field label={t.modelYearLabel}>{data.vin.modelYear ?? texts.common.dash}</Field>
                </>
              )}
              <Field label={t.origin}>{ITEM_ORIGIN_LABELS[data.origin]}</Field>
              <Field label={t.added}>{formatDateTime(data.createdAt)}</Field>
              {data.archivedAt && <Field label={t.archivedAt}>{formatDateTime(data.archivedAt)}</Field>}
              <Field label={t.lastCheckedAt}>
                {data.lastCheckedAt ? formatDateTime(data.lastCheckedAt) : t.neverChecked}
              </Field>
            </Box>

            {canWrite && (
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                <Button variant="outlined" size="small" onClick={() => onEdit(data)}>
                  {t.edit}
                </Button>
                {data.status === 'active' ? (
                  <Button variant="outlined" size="small" onClick={() => onStatus(data, 'paused')}>
                    {t.pause}
                  </Button>
                ) : (
                  <Button variant="outlined" size="small" onClick={() => onStatus(data, 'active')}>
                    {data.status === 'archived' ? t.restore : t.resume}
                  </Button>
                )}
                {data.status !== 'archived' && (
                  <Button
                    variant="outlined"
                    size="small"
                    color="error"
                    onClick={() => onStatus(data, 'archived')}
                  >
                    {t.archive}
                  </Button>
                )}
              </Stack>
            )}

            <Divider />
            <ItemChecks itemId={data.id} lastCheckedAt={data.lastCheckedAt} />
          </Stack>
        )}
      </Box>
    </Box>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}

/** Findings and events come from the checks engine; before the first check there is nothing to show. */
function ItemChecks({ itemId, lastCheckedAt }: { itemId: string; lastCheckedAt: string | null }) {
  const findings = useItemFindings(itemId);
  const events = useItemEvents(itemId);

  if (findings.isPending || events.isPending) {
    return <Skeleton height={80} />;
  }
  const sources = findings.data?.sources ?? [];
  const eventItems = events.data?.items ?? [];
  const checked = Boolean(findings.data?.lastCheckedAt ?? lastCheckedAt);

  if (!checked && eventItems.length === 0) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', color: 'text.secondary', py: 2 }}>
        <FactCheckOutlinedIcon sx={{ fontSize: 40, opacity: 0.6 }} />
        <Typography color="text.primary">{t.noChecksTitle}</Typography>
        <Typography variant="body2">{t.noChecksHint}</Typography>
      </Stack>
    );
  }

  return (
    <Stack spacing={2.5}>
      {findings.isError && <Alert severity="error">{getErrorMessage(findings.error)}</Alert>}
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {t.findingsTitle}
        </Typography>
        {sources.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t.noFindings}
          </Typography>
        ) : (
          <Stack spacing={1}>
            {sources.map((source) => (
              <Stack
                key={source.type}
                direction="row"
                spacing={1}
                sx={{ justifyContent: 'space-between', alignItems: 'center' }}
              >
                <Typography variant="body2">{source.name}</Typography>
                <Chip
                  size="small"
                  color={source.findings.length > 0 ? 'warning' : 'success'}
                  variant="outlined"
                  label={source.findings.length > 0 ? t.findingsCount(source.findings.length) : t.clean}
                />
              </Stack>
            ))}
          </Stack>
        )}
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {t.eventsTitle}
        </Typography>
        {events.isError && <Alert severity="error">{getErrorMessage(events.error)}</Alert>}
        {eventItems.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t.noEvents}
          </Typography>
        ) : (
          <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {eventItems.map((event) => (
              <Box component="li" key={event.id}>
                <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="body2" sx={{ fontWeight: event.read ? 400 : 600 }}>
                    {event.typeLabel}
                  </Typography>
                  {event.demo && <Chip size="small" label={t.demo} />}
                </Stack>
                <Typography variant="caption" color="text.secondary">
                  {`${event.sourceName} · ${SEVERITIES[event.severity].label} · ${formatDateTime(event.detectedAt)}`}
                </Typography>
              </Box>
            ))}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}
