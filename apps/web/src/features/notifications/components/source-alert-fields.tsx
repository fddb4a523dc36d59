import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  type NotificationSubject,
  SOURCE_TYPE_CODES,
  SOURCE_TYPES,
  type SourceType,
} from '@pledgewatch/contract';
import { type Control, Controller, type FieldErrors } from 'react-hook-form';
import { texts } from '@/features/notifications/texts';
import type { RuleFormValues } from '../rule-form';

const t = texts.notifications.form;

/** What a source rule asks: which source, after how many failures or hours, and the recovery message. */
export function SourceAlertFields({
  control,
  subject,
  errors,
}: {
  control: Control<RuleFormValues>;
  subject: Exclude<NotificationSubject, 'events'>;
  errors: FieldErrors<RuleFormValues>;
}) {
  const numberField = subject === 'source_failure' ? 'failureThreshold' : 'staleHours';
  const numberError = errors[numberField]?.message;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Controller
          control={control}
          name="sourceType"
          render={({ field }) => (
            <TextField
              select
              fullWidth
              label={t.sourceType}
              value={field.value ?? ''}
              onChange={(event) => field.onChange((event.target.value || null) as SourceType | null)}
              error={Boolean(errors.sourceType)}
              helperText={errors.sourceType?.message}
            >
              <MenuItem value="">{t.anySource}</MenuItem>
              {SOURCE_TYPE_CODES.map((type) => (
                <MenuItem key={type} value={type}>
                  {SOURCE_TYPES[type].name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Controller
          control={control}
          name={numberField}
          render={({ field }) => (
            <TextField
              type="number"
              fullWidth
              label={subject === 'source_failure' ? t.failureThreshold : t.staleHours}
              value={Number.isNaN(field.value) ? '' : field.value}
              onChange={(event) =>
                field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))
              }
              error={Boolean(numberError)}
              helperText={
                numberError ?? (subject === 'source_failure' ? t.failureThresholdHint : t.staleHoursHint)
              }
              slotProps={{ htmlInput: { min: 1, step: 1 } }}
            />
          )}
        />
      </Stack>
      <Controller
        control={control}
        name="notifyRecovery"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} />
            }
            label={t.notifyRecovery}
          />
        )}
      />
    </Stack>
  );
}
