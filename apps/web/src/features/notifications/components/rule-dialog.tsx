import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  MAX_RECIPIENTS,
  NOTIFICATION_SUBJECT_LABELS,
  NOTIFICATION_SUBJECTS,
  type NotificationRule,
  notificationRuleFormSchema,
} from '@pledgewatch/contract';
import { useId, useMemo, useState } from 'react';
import { Controller, type Path, type Resolver, useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/notifications/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useCreateNotificationRule } from '../api/create-notification-rule';
import { useUpdateNotificationRule } from '../api/update-notification-rule';
import { emptyRuleForm, formToBody, type RuleFormValues, ruleToForm } from '../rule-form';
import { DeliveryFields, DigestFields, EventFilterFields } from './rule-form-sections';
import { SourceAlertFields } from './source-alert-fields';

const t = texts.notifications.form;
const _HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const SERVER_FIELDS: Path<RuleFormValues>[] = [
  'name',
  'eventTypes',
  'minSeverity',
  'itemFilter.label',
  'itemFilter.contractNumber',
  'method',
  'recipients',
  ...Array.from({ length: MAX_RECIPIENTS }, (_, index) => `recipients.${index}` as const),
  'config.url',
  'config.secret',
  'config.botToken',
  'config.chatId',
  'mode',
  'digestHour',
  'subject',
  'sourceType',
  'failureThreshold',
  'staleHours',
];

type RuleDialogProps = {
  open: boolean;
  /** The rule being edited; none for a new rule. */
  rule: NotificationRule | null;
  onClose: () => void;
};

export function RuleDialog({ open, rule, onClose }: RuleDialogProps) {
  // A fresh form per rule: remounting resets every field and error.
  return open ? <RuleForm key={rule?.id ?? 'new'} rule={rule} onClose={onClose} /> : null;
}

function RuleForm({ rule, onClose }: { rule: NotificationRule | null; onClose: () => void }) {
  const titleId = useId();
  const editing = rule !== null;
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateNotificationRule();
  const update = useUpdateNotificationRule();
  const schema = useMemo(() => notificationRuleFormSchema({ secretsOptional: editing }), [editing]);
  const form = useForm<RuleFormValues>({
    resolver: zodResolver(schema) as unknown as Resolver<RuleFormValues>,
    defaultValues: rule ? ruleToForm(rule) : emptyRuleForm(),
    mode: 'onChange',
  });
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = form;
  const subject = useWatch({ control, name: 'subject' });
  const pending = create.isPending || update.isPending;

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    const body = formToBody(values);
    const onError = (error: unknown) => setFormError(applyServerErrors(error, setError, SERVER_FIELDS));
    if (rule) {
      update.mutate(
        { id: rule.id, ...body },
        {
          onSuccess: () => {
            toast.success(t.saved);
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate(body as Parameters<typeof create.mutate>[0], {
        onSuccess: () => {
          toast.success(t.created);
          onClose();
        },
        onError,
      });
    }
  });

  return (
    <Dialog open onClose={pending ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>{editing ? t.editTitle : t.createTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormAlert message={formError} />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                {...register('name')}
                label={t.name}
                autoFocus
                fullWidth
                error={Boolean(errors.name)}
                helperText={errors.name?.message}
              />
              <Controller
                control={control}
                name="enabled"
                render={({ field }) => (
                  <FormControlLabel
                    sx={{ flexShrink: 0 }}
                    control={
                      <Switch
                        checked={field.value}
                        onChange={(event) => field.onChange(event.target.checked)}
                      />
                    }
                    label={t.enabled}
                  />
                )}
              />
            </Stack>

            <Controller
              control={control}
              name="subject"
              render={({ field }) => (
                <TextField
                  {...field}
                  select
                  label={t.subject}
                  helperText={t.subjectHints[subject]}
                  onChange={(event) => {
                    field.onChange(event.target.value);
                    // Source alerts go out at once; keep the digest choice valid for them.
                    if (event.target.value !== 'events') {
                      setValue('mode', 'instant', { shouldValidate: true });
                    }
                  }}
                >
                  {NOTIFICATION_SUBJECTS.map((item) => (
                    <MenuItem key={item} value={item}>
                      {NOTIFICATION_SUBJECT_LABELS[item]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />

            {subject !== 'events' && (
              <SourceAlertFields control={control} subject={subject} errors={errors} />
            )}

            <EventFilterFields form={form} />

            <DeliveryFields form={form} rule={rule} />

            {subject !== 'events' && (
              <Typography variant="body2" color="text.secondary">
                {t.sourceModeHint}
              </Typography>
            )}
            <DigestFields form={form} />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>
            {texts.common.cancel}
          </Button>
          <Button type="submit" variant="contained" loading={pending}>
            {editing ? t.submitSave : t.submitCreate}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
