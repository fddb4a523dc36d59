import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  EVENT_TYPE_CODES,
  EVENT_TYPES,
  type EventType,
  NOTIFICATION_METHOD_LABELS,
  NOTIFICATION_METHODS,
  NOTIFICATION_MODE_LABELS,
  NOTIFICATION_MODES,
  type NotificationRule,
  SEVERITIES,
  SEVERITY_CODES,
} from '@pledgewatch/contract';
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form';
import { texts } from '@/features/notifications/texts';
import { useAdditionalMethods } from '../api/get-additional-methods';
import type { RuleFormValues } from '../rule-form';

// The sections of the rule form, each reading the form it is given.

const t = texts.notifications.form;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

type FormProps = { form: UseFormReturn<RuleFormValues> };

/** Which events a rule sends: their types, the lowest severity and the items they concern. */
export function EventFilterFields({ form }: FormProps) {
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const subject = useWatch({ control, name: 'subject' });
  return (
    <>
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
    </>
  );
}

/** How a rule delivers: the method, e-mail recipients or the method's own settings. */
export function DeliveryFields({ form, rule }: FormProps & { rule: NotificationRule | null }) {
  const {
    register,
    control,
    setValue,
    getValues,
    formState: { errors },
  } = form;
  const methods = useAdditionalMethods();
  const method = useWatch({ control, name: 'method' });
  const recipients = useWatch({ control, name: 'recipients' });
  const methodInfo = methods.data?.items.find((item) => item.method === method);
  const recipientErrors = errors.recipients as unknown as
    | ({ message?: string } & Record<number, { message?: string } | undefined>)
    | undefined;
  return (
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
              const fieldError = (errors.config as Record<string, { message?: string }> | undefined)?.[
                info.name
              ];
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
                    fieldError?.message ?? (info.secret && stored ? t.secretKeep(stored) : info.description)
                  }
                />
              );
            })}
          </Stack>
        )}
      </Stack>
    </div>
  );
}

/** When an events rule sends: at once or in a daily digest at a chosen hour. */
export function DigestFields({ form }: FormProps) {
  const {
    control,
    formState: { errors },
  } = form;
  const subject = useWatch({ control, name: 'subject' });
  const mode = useWatch({ control, name: 'mode' });
  return (
    <>
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
    </>
  );
}
