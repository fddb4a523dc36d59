import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type CheckSchedule, updateCheckScheduleBodySchema } from '@pledgewatch/contract';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@/features/checks/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useCheckSchedule } from '../api/get-check-schedule';
import { useUpdateCheckSchedule } from '../api/update-check-schedule';

const t = texts.checks.schedule;

function ScheduleForm({ schedule }: { schedule: CheckSchedule }) {
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [time, setTime] = useState(schedule.time);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setEnabled(schedule.enabled);
    setTime(schedule.time);
  }, [schedule.enabled, schedule.time]);
  const update = useUpdateCheckSchedule({
    onSuccess: () => toast.success(t.saved),
    onError: (failure) => toast.error(getErrorMessage(failure)),
  });
  const dirty = enabled !== schedule.enabled || time !== schedule.time;

  return (
    <Stack
      component="form"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ alignItems: { sm: 'center' } }}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = updateCheckScheduleBodySchema.safeParse({ enabled, time });
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message ?? texts.errors.unknown);
          return;
        }
        setError(null);
        update.mutate(parsed.data);
      }}
    >
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />}
        label={t.enabled}
      />
      <TextField
        size="small"
        label={t.time}
        placeholder={t.timePlaceholder}
        value={time}
        disabled={!enabled}
        error={Boolean(error)}
        helperText={error ?? t.timeHelper}
        onChange={(event) => setTime(event.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
        sx={{ width: 180 }}
      />
      <Button type="submit" variant="outlined" disabled={!dirty} loading={update.isPending}>
        {texts.common.save}
      </Button>
    </Stack>
  );
}

/** The daily run: admins set it, everyone sees when the next one is. Times are Moscow time. */
export function ScheduleCard({ canEdit }: { canEdit: boolean }) {
  const schedule = useCheckSchedule();
  const data = schedule.data;
  return (
    <Paper variant="outlined" component="section" aria-label={t.heading} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t.heading}
      </Typography>
      {schedule.isPending && <Skeleton height={40} />}
      {schedule.isError && <Alert severity="error">{getErrorMessage(schedule.error)}</Alert>}
      {data && (
        <Stack spacing={1.5}>
          {canEdit ? (
            <ScheduleForm schedule={data} />
          ) : (
            <Typography>{data.enabled ? t.dailyAt(data.time) : t.off}</Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            {t.next(data.nextRunAt ? formatDateTime(data.nextRunAt) : texts.common.dash)} ·{' '}
            {t.last(formatDateTime(data.lastTriggeredAt))}
          </Typography>
        </Stack>
      )}
    </Paper>
  );
}
