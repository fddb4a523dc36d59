import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { FormAlert } from '@/components/ui/form-alert';
import { TextInput } from '@/components/ui/text-input';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts-signed-out';
import { applyServerErrors } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { AuthCardHeader } from './auth-card-header';

const resolver = lazyResolver(() =>
  import('../form-schemas').then((schemas) => schemas.resetPasswordRequestResolver),
);
const FIELDS = ['email'] as const;

export function ResetPasswordRequestForm() {
  const [formError, setFormError] = useState<string | null>(null);
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: resolver, defaultValues: { email: '' } });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    request.mutate(values, {
      onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
    });
  });

  const backLink = (
    <Link component={RouterLink} to={paths.auth.getHref()} sx={{ alignSelf: 'center' }}>
      {texts.resetPassword.backToSignIn}
    </Link>
  );

  if (request.isSuccess) {
    // The same answer whether or not the account exists, so the form cannot be used to probe e-mails.
    return (
      <Stack spacing={2.5}>
        <AuthCardHeader title={texts.resetPassword.requestTitle} />
        <Alert severity="success" role="status">
          {texts.resetPassword.requestSent}
        </Alert>
        {backLink}
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} onInput={resolver.preload} noValidate>
      <AuthCardHeader
        title={texts.resetPassword.requestTitle}
        subtitle={texts.resetPassword.requestSubtitle}
      />
      <Stack spacing={2.5}>
        <FormAlert message={formError} />
        <TextInput
          {...register('email')}
          label={texts.resetPassword.email}
          type="email"
          autoComplete="email"
          autoFocus
          error={Boolean(errors.email)}
          helperText={errors.email?.message}
        />
        <Button type="submit" variant="contained" size="large" loading={request.isPending}>
          {texts.resetPassword.requestSubmit}
        </Button>
        {backLink}
      </Stack>
    </form>
  );
}
