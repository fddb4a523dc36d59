import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  NOTIFICATION_METHOD_LABELS,
  NOTIFICATION_MODE_LABELS,
  NOTIFICATION_SUBJECT_LABELS,
  type NotificationRule,
} from '@pledgewatch/contract';
import type { ResponsiveColumn } from '@/components/ui/responsive-table';
import { texts } from '@/features/notifications/texts';
import { describeEvents, describeItems, describeSeverity, describeTarget } from '../rule-form';

const t = texts.notifications.rules;

type RuleColumnsOptions = {
  canManage: boolean;
  isUpdating: (rule: NotificationRule) => boolean;
  onToggle: (rule: NotificationRule, enabled: boolean) => void;
  isTesting: (rule: NotificationRule) => boolean;
  onTest: (rule: NotificationRule) => void;
  onEdit: (rule: NotificationRule) => void;
  onDelete: (rule: NotificationRule) => void;
};

/** The rules' columns; a phone card is headed by the rule's name with its switch at the right. */
export function ruleColumns(options: RuleColumnsOptions): ResponsiveColumn<NotificationRule>[] {
  const { canManage } = options;
  const columns: ResponsiveColumn<NotificationRule>[] = [
    {
      id: 'name',
      header: t.name,
      card: 'title',
      cellSx: { minWidth: 160 },
      cell: (rule) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {rule.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {rule.mode === 'daily' ? t.dailyAt(rule.digestHour) : NOTIFICATION_MODE_LABELS[rule.mode]}
          </Typography>
        </>
      ),
    },
    {
      id: 'target',
      header: t.target,
      cellSx: { minWidth: 200, maxWidth: 320, overflowWrap: 'break-word' },
      cell: (rule) => (
        <>
          <Typography variant="body2">{NOTIFICATION_METHOD_LABELS[rule.method]}</Typography>
          <Typography variant="body2" color="text.secondary">
            {rule.method === 'email'
              ? // Each address wraps as a whole; it breaks inside only when it alone is wider than the cell.
                rule.recipients.map((address, index) => (
                  <Box
                    component="span"
                    key={address}
                    data-address
                    sx={{ display: 'inline-block', maxWidth: '100%' }}
                  >
                    {address}
                    {index < rule.recipients.length - 1 ? ',\u00a0' : ''}
                  </Box>
                ))
              : describeTarget(rule)}
          </Typography>
        </>
      ),
    },
    {
      id: 'events',
      header: t.events,
      cellSx: { minWidth: 180 },
      cell: (rule) => (
        <>
          <Typography variant="body2">{describeEvents(rule)}</Typography>
          <Typography variant="body2" color="text.secondary">
            {rule.subject === 'events'
              ? `${describeSeverity(rule)}; ${describeItems(rule).toLowerCase()}`
              : NOTIFICATION_SUBJECT_LABELS[rule.subject]}
          </Typography>
        </>
      ),
    },
    {
      id: 'enabled',
      header: t.enabled,
      card: 'actions',
      cell: (rule) =>
        canManage ? (
          <Switch
            checked={rule.enabled}
            disabled={options.isUpdating(rule)}
            slotProps={{ input: { 'aria-label': t.toggle(rule.name) } }}
            onChange={(event) => options.onToggle(rule, event.target.checked)}
          />
        ) : (
          <Chip
            size="small"
            color={rule.enabled ? 'success' : 'default'}
            label={rule.enabled ? t.on : t.off}
          />
        ),
    },
  ];
  if (!canManage) {
    return columns;
  }
  return [
    ...columns,
    {
      id: 'actions',
      header: texts.common.actions,
      align: 'right',
      // On a card the buttons close it, in a row of their own under the fields.
      card: 'secondary',
      cellSx: { whiteSpace: 'nowrap' },
      cell: (rule) => (
        <>
          <Button
            size="small"
            startIcon={<SendOutlinedIcon />}
            loading={options.isTesting(rule)}
            onClick={() => options.onTest(rule)}
          >
            {t.sendTest}
          </Button>
          <Tooltip title={t.edit}>
            <IconButton aria-label={`${t.edit}: ${rule.name}`} onClick={() => options.onEdit(rule)}>
              <EditOutlinedIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title={t.delete}>
            <IconButton
              aria-label={`${t.delete}: ${rule.name}`}
              color="error"
              onClick={() => options.onDelete(rule)}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Tooltip>
        </>
      ),
    },
  ];
}
