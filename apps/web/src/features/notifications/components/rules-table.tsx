import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import type { NotificationRule } from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { texts } from '@/features/notifications/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteNotificationRules } from '../api/delete-notification-rules';
import { useNotificationRules } from '../api/get-notification-rules';
import { useSendTestNotification } from '../api/send-test-notification';
import { useUpdateNotificationRule } from '../api/update-notification-rule';
import { ruleColumns } from './rule-columns';
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
      <ResponsiveTable
        rows={items}
        columns={ruleColumns({
          canManage,
          isUpdating: (rule) => update.isPending && update.variables?.id === rule.id,
          onToggle: (rule, enabled) => update.mutate({ id: rule.id, enabled }),
          isTesting: (rule) => test.isPending && test.variables === rule.id,
          onTest: (rule) => test.mutate(rule.id),
          onEdit: (rule) => setEditing({ rule }),
          onDelete: setDeleting,
        })}
        getRowId={(rule) => rule.id}
        ariaLabel={t.heading}
        rowOptions={() => ({ testId: 'notification-rule-row' })}
        showEmpty={Boolean(rules.data)}
        empty={canManage ? t.empty : t.emptyReadOnly}
      />
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
