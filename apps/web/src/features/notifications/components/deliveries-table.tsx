import RefreshIcon from '@mui/icons-material/Refresh';
import Chip, { type ChipProps } from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
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
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableEmptyRow, TableQueryState } from '@/components/ui/table-states';
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
      </TableToolbar>
      <TableQueryState query={deliveries} />
      <TableContainer>
        <Table size="small" aria-label={t.heading}>
          <TableHead>
            <TableRow>
              <TableCell>{t.createdAt}</TableCell>
              <TableCell>{t.rule}</TableCell>
              <TableCell>{t.recipient}</TableCell>
              <TableCell>{t.event}</TableCell>
              <TableCell>{t.status}</TableCell>
              <TableCell>{t.lastError}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {deliveries.data?.items.map((delivery) => (
              <TableRow key={delivery.id} hover data-testid="delivery-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(delivery.createdAt)}
                  {delivery.sentAt && (
                    <Typography variant="body2" color="text.secondary">
                      {t.sentAt(formatDateTime(delivery.sentAt))}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {delivery.ruleName}
                  <Typography variant="body2" color="text.secondary">
                    {NOTIFICATION_METHOD_LABELS[delivery.method]}
                  </Typography>
                </TableCell>
                <TableCell sx={{ minWidth: 200, maxWidth: 280, overflowWrap: 'anywhere' }}>
                  {delivery.recipient}
                </TableCell>
                <TableCell>
                  {describeEvent(delivery)}
                  {delivery.event?.label && (
                    <Typography variant="body2" color="text.secondary">
                      {delivery.event.label}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Chip
                    size="small"
                    color={STATUS_COLORS[delivery.status]}
                    label={DELIVERY_STATUS_LABELS[delivery.status]}
                  />
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                    {t.triesValue(delivery.attempts, delivery.maxAttempts)}
                  </Typography>
                </TableCell>
                <TableCell
                  sx={{
                    maxWidth: 280,
                    color: delivery.lastError ? 'error.main' : 'text.secondary',
                    overflowWrap: 'anywhere',
                  }}
                >
                  {delivery.lastError ?? texts.common.dash}
                </TableCell>
              </TableRow>
            ))}
            {deliveries.data && deliveries.data.items.length === 0 && (
              <TableEmptyRow colSpan={6}>{filtered ? t.emptyFiltered : t.empty}</TableEmptyRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination
        count={deliveries.data?.total}
        page={page}
        pageSize={pageSize}
        onChange={(nextPage, nextPageSize) => update({ page: nextPage, pageSize: nextPageSize })}
      />
    </Paper>
  );
}
