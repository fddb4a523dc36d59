import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { resetPasswordConfirmBodySchema } from '@pledgewatch/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { z } from 'zod';
import { FormAlert } from '@/components/ui/form-alert';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { AuthCardHeader } from './auth-card-header';

const confirmFormSchema = resetPasswordConfirmBodySchema
  .pick({ new_password: true })
  .extend({ confirm_password: z.string() })
  .refine((values) => values.new_password === values.confirm_password, {
    path: ['confirm_password'],
    error: texts.common.passwordsMismatch,
  });

const FIELDS = ['new_password'] as const;

export function ResetPasswordConfirmForm({ token, onSuccess }: { token: string; onSuccess: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const confirm = useConfirmPasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(confirmFormSchema),
    defaultValues: { new_password: '', confirm_password: '' },
  });

  const onSubmit = handleSubmit(({ new_password }) => {
    setFormError(null);
    confirm.mutate(
      { token, new_password },
      {
        onSuccess,
        // A bad or expired token comes back as a field error on `token`, which has no input here.
        onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <AuthCardHeader
        title={texts.resetPassword.confirmTitle}
        subtitle={texts.resetPassword.confirmSubtitle}
      />
      <Stack spacing={2.5}>
        <FormAlert message={formError} />
        <TextField
          {...register('new_password')}
          label={texts.resetPassword.newPassword}
          type="password"
          autoComplete="new-password"
          autoFocus
          error={Boolean(errors.new_password)}
          helperText={errors.new_password?.message ?? texts.common.passwordRules}
        />
        <TextField
          {...register('confirm_password')}
          label={texts.resetPassword.confirmPassword}
          type="password"
          autoComplete="new-password"
          error={Boolean(errors.confirm_password)}
          helperText={errors.confirm_password?.message}
        />
        <Button type="submit" variant="contained" size="large" loading={confirm.isPending}>
          {texts.resetPassword.confirmSubmit}
        </Button>
        <Link component={RouterLink} to={paths.auth.getHref()} sx={{ alignSelf: 'center' }}>
          {texts.resetPassword.backToSignIn}
        </Link>
      </Stack>
    </form>
  );
}
