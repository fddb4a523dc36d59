import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { changePasswordBodySchema, passwordConfirmationField } from '@pledgewatch/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { texts } from '@/features/settings/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useChangePassword } from '../api/change-password';
import { SectionCard } from './section-card';

const passwordFormSchema = changePasswordBodySchema
  .extend({ confirm_password: passwordConfirmationField })
  .refine((values) => values.new_password === values.confirm_password, {
    path: ['confirm_password'],
    error: texts.common.passwordsMismatch,
  });

const FIELDS = ['old_password', 'new_password'] as const;
const EMPTY = { old_password: '', new_password: '', confirm_password: '' };

export function PasswordForm() {
  const [formError, setFormError] = useState<string | null>(null);
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(passwordFormSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit(({ old_password, new_password }) => {
    setFormError(null);
    change.mutate(
      { old_password, new_password },
      {
        onSuccess: () => {
          reset(EMPTY);
          toast.success(texts.settings.password.changed);
        },
        onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
      },
    );
  });

  return (
    <SectionCard title={texts.settings.password.heading}>
      <form onSubmit={onSubmit} noValidate>
        <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
          <FormAlert message={formError} />
          <TextField
            {...register('old_password')}
            label={texts.settings.password.oldPassword}
            type="password"
            autoComplete="current-password"
            error={Boolean(errors.old_password)}
            helperText={errors.old_password?.message}
          />
          <NewPasswordFields
            newPassword={{
              register: register('new_password'),
              label: texts.settings.password.newPassword,
              error: errors.new_password?.message,
            }}
            confirmPassword={{
              register: register('confirm_password'),
              label: texts.settings.password.confirmPassword,
              error: errors.confirm_password?.message,
            }}
          />
          <Button
            type="submit"
            variant="contained"
            loading={change.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            {texts.settings.password.submit}
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}
