import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type CreatedApiKey, createApiKeyBodySchema, ROLE_LABELS, ROLES } from '@pledgewatch/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { FormDateField } from '@/components/ui/form-date-field';
import { applyServerErrors } from '@/lib/form-errors';
import { useCreateApiKey } from '../api/create-api-key';
import { texts } from '../texts';

const t = texts.apiKeys;
const FIELDS = ['name', 'role', 'expiresOn', 'rateLimitPerMinute'] as const;
const EMPTY = { name: '', role: 'analyst' as const, expiresOn: null, rateLimitPerMinute: undefined };

/** Creates a key, then shows its secret once, with a copy button. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useCreateApiKey();
  const form = useForm({ resolver: zodResolver(createApiKeyBodySchema), defaultValues: EMPTY });
  const { register, control, handleSubmit, setError, reset, formState } = form;

  const close = () => {
    reset(EMPTY);
    setFormError(null);
    setCreated(null);
    onClose();
  };
  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    create.mutate(values, {
      onSuccess: (key) => setCreated(key),
      onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
    });
  });

  if (created) {
    return (
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="api-key-secret-title">
        <DialogTitle id="api-key-secret-title">{t.secretTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="warning">{t.secretWarning}</Alert>
            <TextField
              label={created.name}
              value={created.secret}
              slotProps={{
                input: { readOnly: true, sx: { fontFamily: 'monospace', wordBreak: 'break-all' } },
              }}
              multiline
              onFocus={(event) => event.target.select()}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              void navigator.clipboard?.writeText(created.secret).then(() => toast.success(t.copied));
            }}
          >
            {t.copy}
          </Button>
          <Button variant="contained" onClick={close}>
            {t.done}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="api-key-create-title">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="api-key-create-title">{t.createTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormAlert message={formError} />
            <TextField
              {...register('name')}
              label={t.name}
              placeholder={t.namePlaceholder}
              autoFocus
              error={Boolean(formState.errors.name)}
              helperText={formState.errors.name?.message}
            />
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <TextField {...field} select label={t.role}>
                  {ROLES.map((role) => (
                    <MenuItem key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <FormDateField
              control={control}
              name="expiresOn"
              label={t.expiresOn}
              error={formState.errors.expiresOn?.message}
            />
            <TextField
              {...register('rateLimitPerMinute', {
                setValueAs: (value) => (value === '' ? undefined : Number(value)),
              })}
              label={t.rateLimit}
              type="number"
              placeholder="600"
              error={Boolean(formState.errors.rateLimitPerMinute)}
              helperText={formState.errors.rateLimitPerMinute?.message}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t.cancel}</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {t.submit}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
