import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  NOTIFICATION_METHOD_LABELS,
  NOTIFICATION_MODE_LABELS,
  NOTIFICATION_SUBJECT_LABELS,
  type NotificationRule,
} from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableEmptyRow, TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { texts } from '@/features/notifications/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteNotificationRules } from '../api/delete-notification-rules';
import { useNotificationRules } from '../api/get-notification-rules';
import { useSendTestNotification } from '../api/send-test-notification';
import { useUpdateNotificationRule } from '../api/update-notification-rule';
import { describeEvents, describeItems, describeSeverity, describeTarget } from '../rule-form';
import { RuleDialog } from './rule-dialog';

const t = texts.notifications.rules;

/** The organisation's rules; admins create, edit, switch, test and delete them, others only read. */
export function RulesTable({ canManage }: { canManage: boolean }) {
  const rules = useNotificationRules();
  const [editing, setEditing] = useState<{ rule: NotificationRule | null } | null>(null);
  const [deleting, setDeleting] = useState<NotificationRule | null>(null);
  const update = useUpdateNotificationRule({
    onSuccess: (rule) => toast.success(rule.enabled ? t.enabledToast : t.disabledToast),
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const remove = useDeleteNotificationRules({
    onSuccess: () => {
      toast.success(t.deleted);
      setDeleting(null);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const test = useSendTestNotification({
    onSuccess: () => toast.success(t.testQueued),
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const items = rules.data?.items ?? [];

  return (
    <Paper variant="outlined">
      <TableToolbar title={t.heading} hint={t.hint}>
        {canManage && (
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setEditing({ rule: null })}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {t.create}
          </Button>
        )}
      </TableToolbar>
      <TableQueryState query={rules} />
      <TableContainer>
        <Table size="small" aria-label={t.heading}>
          <TableHead>
            <TableRow>
              <TableCell>{t.name}</TableCell>
              <TableCell>{t.target}</TableCell>
              <TableCell>{t.events}</TableCell>
              <TableCell>{t.enabled}</TableCell>
              {canManage && <TableCell align="right">{texts.common.actions}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((rule) => (
              <TableRow key={rule.id} hover data-testid="notification-rule-row">
                <TableCell sx={{ minWidth: 160 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {rule.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {rule.mode === 'daily' ? t.dailyAt(rule.digestHour) : NOTIFICATION_MODE_LABELS[rule.mode]}
                  </Typography>
                </TableCell>
                <TableCell sx={{ minWidth: 200, maxWidth: 320, overflowWrap: 'anywhere' }}>
                  <Typography variant="body2">{NOTIFICATION_METHOD_LABELS[rule.method]}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {describeTarget(rule)}
                  </Typography>
                </TableCell>
                <TableCell sx={{ minWidth: 180 }}>
                  <Typography variant="body2">{describeEvents(rule)}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {rule.subject === 'events'
                      ? `${describeSeverity(rule)}; ${describeItems(rule).toLowerCase()}`
                      : NOTIFICATION_SUBJECT_LABELS[rule.subject]}
                  </Typography>
                </TableCell>
                <TableCell>
                  {canManage ? (
                    <Switch
                      checked={rule.enabled}
                      disabled={update.isPending && update.variables?.id === rule.id}
                      slotProps={{ input: { 'aria-label': t.toggle(rule.name) } }}
                      onChange={(event) => update.mutate({ id: rule.id, enabled: event.target.checked })}
                    />
                  ) : (
                    <Chip
                      size="small"
                      color={rule.enabled ? 'success' : 'default'}
                      label={rule.enabled ? t.on : t.off}
                    />
                  )}
                </TableCell>
                {canManage && (
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Button
                      size="small"
                      startIcon={<SendOutlinedIcon />}
                      loading={test.isPending && test.variables === rule.id}
                      onClick={() => test.mutate(rule.id)}
                    >
                      {t.sendTest}
                    </Button>
                    <Tooltip title={t.edit}>
                      <IconButton aria-label={`${t.edit}: ${rule.name}`} onClick={() => setEditing({ rule })}>
                        <EditOutlinedIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t.delete}>
                      <IconButton
                        aria-label={`${t.delete}: ${rule.name}`}
                        color="error"
                        onClick={() => setDeleting(rule)}
                      >
                        <DeleteOutlineIcon />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
            {rules.data && items.length === 0 && (
              <TableEmptyRow colSpan={5}>{canManage ? t.empty : t.emptyReadOnly}</TableEmptyRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <RuleDialog open={editing !== null} rule={editing?.rule ?? null} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t.deleteTitle}
        message={deleting ? t.deleteMessage(deleting.name) : ''}
        confirmLabel={t.delete}
        danger
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ ids: [deleting.id] })}
        onClose={() => setDeleting(null)}
      />
    </Paper>
  );
}
