import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUSES,
  type Delivery,
  type DeliveryStatus,
  NOTIFICATION_METHOD_LABELS,
} from '@pledgewatch/contract';
import { useState } from 'react';
import { FilterDrawer } from '@/components/ui/filter-drawer';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { texts } from '@/features/notifications/texts';
import { formatDateTime } from '@/lib/format';
import { useDeliveries } from '../api/get-deliveries';
import { useNotificationRules } from '../api/get-notification-rules';
import { useDeliveriesView } from './use-deliveries-view';

const t = texts.notifications.deliveries;

const STATUS_COLORS: Record<DeliveryStatus, ChipProps['color']> = {
  queued: 'default',
  sending: 'info',
  retrying: 'warning',
  sent: 'success',
  failed: 'error',
};

function describeEvent(delivery: Delivery): string {
  if (delivery.kind === 'test') {
    return t.test;
  }
  if (delivery.kind === 'digest') {
    return t.digest(delivery.eventCount);
  }
  if (delivery.kind === 'source') {
    return delivery.alert ?? t.sourceAlert;
  }
  if (!delivery.event) {
    return t.deletedEvent;
  }
  return `${delivery.event.typeLabel}: ${delivery.event.identifier}`;
}

/**
 * Every delivery of the organisation, newest first, paged and filtered on the server; the status
 * filter and the page live in the URL (`?deliveryStatus=failed` opens the failed ones).
 */
const DELIVERY_COLUMNS: ResponsiveColumn<Delivery>[] = [
  {
    id: 'createdAt',
    header: t.createdAt,
    card: 'secondary',
    cellSx: { whiteSpace: 'nowrap' },
    cell: (delivery) => (
      <>
        {formatDateTime(delivery.createdAt)}
        {delivery.sentAt && (
          <Typography variant="body2" color="text.secondary">
            {t.sentAt(formatDateTime(delivery.sentAt))}
          </Typography>
        )}
      </>
    ),
    cardCell: (delivery) =>
      [formatDateTime(delivery.createdAt), delivery.sentAt && t.sentAt(formatDateTime(delivery.sentAt))]
        .filter(Boolean)
        .join(' · '),
  },
  {
    id: 'rule',
    header: t.rule,
    card: 'title',
    cell: (delivery) => (
      <>
        {delivery.ruleName}
        <Typography variant="body2" color="text.secondary">
          {NOTIFICATION_METHOD_LABELS[delivery.method]}
        </Typography>
      </>
    ),
  },
  {
    id: 'recipient',
    header: t.recipient,
    cellSx: { minWidth: 200, maxWidth: 280, overflowWrap: 'anywhere' },
    cell: (delivery) => delivery.recipient,
  },
  {
    id: 'event',
    header: t.event,
    cell: (delivery) => (
      <>
        {describeEvent(delivery)}
        {delivery.event?.label && (
          <Typography variant="body2" color="text.secondary">
            {delivery.event.label}
          </Typography>
        )}
      </>
    ),
  },
  {
    id: 'status',
    header: t.status,
    cellSx: { whiteSpace: 'nowrap' },
    cell: (delivery) => (
      <>
        <Chip
          size="small"
          color={STATUS_COLORS[delivery.status]}
          label={DELIVERY_STATUS_LABELS[delivery.status]}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t.triesValue(delivery.attempts, delivery.maxAttempts)}
        </Typography>
      </>
    ),
  },
  {
    id: 'lastError',
    header: t.lastError,
    cellSx: { maxWidth: 280, overflowWrap: 'anywhere' },
    cell: (delivery) => (
      <Box component="span" sx={{ color: delivery.lastError ? 'error.main' : 'text.secondary' }}>
        {delivery.lastError ?? texts.common.dash}
      </Box>
    ),
  },
];

export function DeliveriesTable() {
  const { view, update } = useDeliveriesView();
  const { status, page, pageSize } = view;
  const [ruleId, setRuleId] = useState('');
  const rules = useNotificationRules();
  const deliveries = useDeliveries({
    page,
    pageSize,
    status: status || undefined,
    ruleId: ruleId || undefined,
  });
  const filtered = Boolean(status || ruleId);

  return (
    <Paper variant="outlined">
      <TableToolbar title={t.heading} hint={t.hint} rowFrom="md">
        <FilterDrawer activeCount={[status, ruleId].filter(Boolean).length}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              select
              size="small"
              label={t.status}
              value={status}
              onChange={(event) => update({ status: event.target.value as DeliveryStatus | '', page: 1 })}
              sx={{ minWidth: 180 }}
            >
              <MenuItem value="">{t.allStatuses}</MenuItem>
              {DELIVERY_STATUSES.map((item) => (
                <MenuItem key={item} value={item}>
                  {DELIVERY_STATUS_LABELS[item]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t.rule}
              value={ruleId}
              onChange={(event) => {
                setRuleId(event.target.value);
                update({ page: 1 });
              }}
              sx={{ minWidth: 220 }}
            >
              <MenuItem value="">{t.allRules}</MenuItem>
              {rules.data?.items.map((rule) => (
                <MenuItem key={rule.id} value={rule.id}>
                  {rule.name}
                </MenuItem>
              ))}
            </TextField>
            <Tooltip title={t.refresh}>
              <IconButton aria-label={t.refresh} onClick={() => void deliveries.refetch()}>
                <RefreshIcon />
              </IconButton>
            </Tooltip>
          </Stack>
        </FilterDrawer>
      </TableToolbar>
      <TableQueryState query={deliveries} />
      <ResponsiveTable
        rows={deliveries.data?.items ?? []}
        columns={DELIVERY_COLUMNS}
        getRowId={(delivery) => delivery.id}
        ariaLabel={t.heading}
        rowOptions={() => ({ testId: 'delivery-row' })}
        showEmpty={Boolean(deliveries.data)}
        empty={filtered ? t.emptyFiltered : t.empty}
      />
      <ServerPagination
        count={deliveries.data?.total}
        page={page}
        pageSize={pageSize}
        onChange={(nextPage, nextPageSize) => update({ page: nextPage, pageSize: nextPageSize })}
      />
    </Paper>
  );
}
