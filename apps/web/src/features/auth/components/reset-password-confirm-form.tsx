import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { FormAlert } from '@/components/ui/form-alert';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts-signed-out';
import { applyServerErrors } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { AuthCardHeader } from './auth-card-header';

const resolver = lazyResolver(() =>
  import('../form-schemas').then((schemas) => schemas.resetPasswordConfirmResolver),
);

const FIELDS = ['new_password'] as const;

/** The reset form's words, or the invitation's when the link came from an invitation mail. */
const wording = (invitation: boolean) =>
  invitation
    ? {
        title: texts.invitation.title,
        subtitle: texts.invitation.subtitle,
        newPassword: texts.invitation.password,
        submit: texts.invitation.submit,
      }
    : {
        title: texts.resetPassword.confirmTitle,
        subtitle: texts.resetPassword.confirmSubtitle,
        newPassword: texts.resetPassword.newPassword,
        submit: texts.resetPassword.confirmSubmit,
      };

export function ResetPasswordConfirmForm({
  token,
  invitation = false,
  onSuccess,
}: {
  token: string;
  invitation?: boolean;
  onSuccess: () => void;
}) {
  const words = wording(invitation);
  const [formError, setFormError] = useState<string | null>(null);
  const confirm = useConfirmPasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver,
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
    <form onSubmit={onSubmit} onInput={resolver.preload} noValidate>
      <AuthCardHeader title={words.title} subtitle={words.subtitle} />
      <Stack spacing={2.5}>
        <FormAlert message={formError} />
        <NewPasswordFields
          newPassword={{
            register: register('new_password'),
            label: words.newPassword,
            error: errors.new_password?.message,
          }}
          confirmPassword={{
            register: register('confirm_password'),
            label: texts.resetPassword.confirmPassword,
            error: errors.confirm_password?.message,
          }}
          autoFocus
        />
        <Button type="submit" variant="contained" size="large" loading={confirm.isPending}>
          {words.submit}
        </Button>
        <Link component={RouterLink} to={paths.auth.getHref()} sx={{ alignSelf: 'center' }}>
          {texts.resetPassword.backToSignIn}
        </Link>
      </Stack>
    </form>
  );
}
