import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type User, updateEmailBodySchema } from '@pledgewatch/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/settings/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useUpdateEmail } from '../api/update-email';
import { SectionCard } from './section-card';

const FIELDS = ['email'] as const;

export function EmailChangeForm({ user, pendingEmail }: { user: User; pendingEmail: string | null }) {
  const [formError, setFormError] = useState<string | null>(null);
  const update = useUpdateEmail();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(updateEmailBodySchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    update.mutate(values, {
      onSuccess: () => {
        reset({ email: '' });
        toast.success(texts.settings.email.sent);
      },
      onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
    });
  });

  return (
    <SectionCard title={texts.settings.email.heading}>
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography color="text.secondary">{texts.settings.email.current}:</Typography>
          <Typography sx={{ fontWeight: 600 }} data-testid="current-email">
            {user.email}
          </Typography>
          <Chip
            size="small"
            color={user.emailVerified ? 'success' : 'warning'}
            label={user.emailVerified ? texts.settings.email.verified : texts.settings.email.notVerified}
          />
        </Stack>
        {pendingEmail && (
          <Alert severity="info" data-testid="pending-email">
            {texts.settings.email.pending(pendingEmail)}
          </Alert>
        )}
        <form onSubmit={onSubmit} noValidate>
          <Stack spacing={2.5}>
            <FormAlert message={formError} />
            <TextField
              {...register('email')}
              label={texts.settings.email.newEmail}
              type="email"
              autoComplete="email"
              error={Boolean(errors.email)}
              helperText={errors.email?.message}
            />
            <Button
              type="submit"
              variant="contained"
              loading={update.isPending}
              sx={{ alignSelf: 'flex-start' }}
            >
              {texts.settings.email.submit}
            </Button>
          </Stack>
        </form>
      </Stack>
    </SectionCard>
  );
}
