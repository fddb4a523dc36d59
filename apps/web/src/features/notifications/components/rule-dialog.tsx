import { zodResolver } from '@hookform/resolvers/zod';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  EVENT_TYPE_CODES,
  EVENT_TYPES,
  type EventType,
  MAX_RECIPIENTS,
  NOTIFICATION_METHOD_LABELS,
  NOTIFICATION_METHODS,
  NOTIFICATION_MODE_LABELS,
  NOTIFICATION_MODES,
  NOTIFICATION_SUBJECT_LABELS,
  NOTIFICATION_SUBJECTS,
  type NotificationRule,
  notificationRuleFormSchema,
  SEVERITIES,
  SEVERITY_CODES,
} from '@pledgewatch/contract';
import { useId, useMemo, useState } from 'react';
import { Controller, type Path, type Resolver, useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/notifications/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useCreateNotificationRule } from '../api/create-notification-rule';
import { useAdditionalMethods } from '../api/get-additional-methods';
import { useUpdateNotificationRule } from '../api/update-notification-rule';
import { emptyRuleForm, formToBody, type RuleFormValues, ruleToForm } from '../rule-form';
import { SourceAlertFields } from './source-alert-fields';

const t = texts.notifications.form;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
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
  const methods = useAdditionalMethods();
  const create = useCreateNotificationRule();
  const update = useUpdateNotificationRule();
  const schema = useMemo(() => notificationRuleFormSchema({ secretsOptional: editing }), [editing]);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<RuleFormValues>({
    resolver: zodResolver(schema) as unknown as Resolver<RuleFormValues>,
    defaultValues: rule ? ruleToForm(rule) : emptyRuleForm(),
    mode: 'onChange',
  });
  const method = useWatch({ control, name: 'method' });
  const mode = useWatch({ control, name: 'mode' });
  const subject = useWatch({ control, name: 'subject' });
  const recipients = useWatch({ control, name: 'recipients' });
  const methodInfo = methods.data?.items.find((item) => item.method === method);
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

  const recipientErrors = errors.recipients as unknown as
    | ({ message?: string } & Record<number, { message?: string } | undefined>)
    | undefined;

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

            {subject === 'events' && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <Controller
                  control={control}
                  name="eventTypes"
                  render={({ field }) => (
                    <TextField
                      select
                      fullWidth
                      label={t.eventTypes}
                      value={field.value}
                      onChange={(event) => field.onChange(event.target.value as unknown as EventType[])}
                      error={Boolean(errors.eventTypes)}
                      helperText={errors.eventTypes?.message ?? t.eventTypesHint}
                      slotProps={{
                        select: {
                          multiple: true,
                          renderValue: (selected) => (
                            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                              {(selected as EventType[]).map((type) => (
                                <Chip key={type} size="small" label={EVENT_TYPES[type].label} />
                              ))}
                            </Stack>
                          ),
                        },
                      }}
                    >
                      {EVENT_TYPE_CODES.map((type) => (
                        <MenuItem key={type} value={type}>
                          {EVENT_TYPES[type].label}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
                <Controller
                  control={control}
                  name="minSeverity"
                  render={({ field }) => (
                    <TextField {...field} select label={t.minSeverity} sx={{ minWidth: 220 }}>
                      {SEVERITY_CODES.map((severity) => (
                        <MenuItem key={severity} value={severity}>
                          {SEVERITIES[severity].label}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </Stack>
            )}

            {subject === 'events' && (
              <div>
                <Typography variant="subtitle2" component="h3">
                  {t.itemsHeading}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
                  {t.itemsHint}
                </Typography>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField
                    {...register('itemFilter.label')}
                    label={t.itemLabel}
                    fullWidth
                    error={Boolean(errors.itemFilter?.label)}
                    helperText={errors.itemFilter?.label?.message}
                  />
                  <TextField
                    {...register('itemFilter.contractNumber')}
                    label={t.itemContract}
                    fullWidth
                    error={Boolean(errors.itemFilter?.contractNumber)}
                    helperText={errors.itemFilter?.contractNumber?.message}
                  />
                </Stack>
              </div>
            )}

            <div>
              <Typography variant="subtitle2" component="h3" sx={{ mb: 1.5 }}>
                {t.methodHeading}
              </Typography>
              <Stack spacing={2}>
                <Controller
                  control={control}
                  name="method"
                  render={({ field }) => (
                    <TextField {...field} select label={t.method} sx={{ maxWidth: 360 }}>
                      {NOTIFICATION_METHODS.map((item) => (
                        <MenuItem key={item} value={item}>
                          {NOTIFICATION_METHOD_LABELS[item]}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
                {method === 'email' && (
                  <Stack spacing={1.5}>
                    {recipientErrors?.message && <Alert severity="error">{recipientErrors.message}</Alert>}
                    {recipients.map((_, index) => (
                      <Stack
                        // biome-ignore lint/suspicious/noArrayIndexKey: the inputs are the array positions.
                        key={index}
                        direction="row"
                        spacing={1}
                        sx={{ alignItems: 'flex-start' }}
                      >
                        <Controller
                          control={control}
                          name={`recipients.${index}`}
                          render={({ field }) => (
                            <TextField
                              {...field}
                              type="email"
                              fullWidth
                              label={t.recipient(index + 1)}
                              error={Boolean(recipientErrors?.[index])}
                              helperText={recipientErrors?.[index]?.message}
                            />
                          )}
                        />
                        {recipients.length > 1 && (
                          <IconButton
                            aria-label={t.removeRecipient(index + 1)}
                            sx={{ mt: 1 }}
                            onClick={() =>
                              setValue(
                                'recipients',
                                getValues('recipients').filter((__, position) => position !== index),
                                { shouldValidate: true },
                              )
                            }
                          >
                            <DeleteOutlineIcon />
                          </IconButton>
                        )}
                      </Stack>
                    ))}
                    <div>
                      <Button
                        startIcon={<AddIcon />}
                        onClick={() => setValue('recipients', [...getValues('recipients'), ''])}
                      >
                        {t.addRecipient}
                      </Button>
                    </div>
                  </Stack>
                )}
                {methodInfo && (
                  <Stack spacing={2}>
                    <Typography variant="body2" color="text.secondary">
                      {methodInfo.description}
                    </Typography>
                    {methodInfo.fields.map((info) => {
                      const stored = rule?.method === method ? rule.config[info.name] : undefined;
                      const fieldError = (
                        errors.config as Record<string, { message?: string }> | undefined
                      )?.[info.name];
                      return (
                        <TextField
                          key={`${method}-${info.name}`}
                          {...register(`config.${info.name}`)}
                          label={info.label}
                          type={info.type === 'secret' ? 'password' : info.type === 'url' ? 'url' : 'text'}
                          autoComplete={info.type === 'secret' ? 'new-password' : 'off'}
                          placeholder={info.placeholder ?? undefined}
                          fullWidth
                          error={Boolean(fieldError)}
                          helperText={
                            fieldError?.message ??
                            (info.secret && stored ? t.secretKeep(stored) : info.description)
                          }
                        />
                      );
                    })}
                  </Stack>
                )}
              </Stack>
            </div>

            {subject !== 'events' && (
              <Typography variant="body2" color="text.secondary">
                {t.sourceModeHint}
              </Typography>
            )}
            {subject === 'events' && (
              <div>
                <Typography variant="subtitle2" component="h3" sx={{ mb: 1.5 }}>
                  {t.modeHeading}
                </Typography>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <Controller
                    control={control}
                    name="mode"
                    render={({ field }) => (
                      <TextField {...field} select label={t.mode} fullWidth helperText={t.modeHints[mode]}>
                        {NOTIFICATION_MODES.map((item) => (
                          <MenuItem key={item} value={item}>
                            {NOTIFICATION_MODE_LABELS[item]}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                  {mode === 'daily' && (
                    <Controller
                      control={control}
                      name="digestHour"
                      render={({ field }) => (
                        <TextField
                          select
                          label={t.digestHour}
                          value={field.value}
                          onChange={(event) => field.onChange(Number(event.target.value))}
                          sx={{ minWidth: 240 }}
                          error={Boolean(errors.digestHour)}
                          helperText={errors.digestHour?.message}
                        >
                          {HOURS.map((hour) => (
                            <MenuItem key={hour} value={hour}>
                              {t.hour(hour)}
                            </MenuItem>
                          ))}
                        </TextField>
                      )}
                    />
                  )}
                </Stack>
              </div>
            )}
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
