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
import { useLogin } from '@/lib/auth';
import { applyServerErrors } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { AuthCardHeader } from './auth-card-header';

const resolver = lazyResolver(() => import('../form-schemas').then((schemas) => schemas.loginResolver));
const FIELDS = ['username', 'password'] as const;

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const login = useLogin();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver,
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    login.mutate(values, {
      onSuccess,
      onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
    });
  });

  return (
    <form onSubmit={onSubmit} onInput={resolver.preload} noValidate>
      <AuthCardHeader title={texts.auth.title} subtitle={texts.auth.subtitle} />
      <Stack spacing={2.5}>
        <FormAlert message={formError} />
        <TextInput
          {...register('username')}
          label={texts.auth.email}
          type="email"
          autoComplete="username"
          autoFocus
          error={Boolean(errors.username)}
          helperText={errors.username?.message}
        />
        <TextInput
          {...register('password')}
          label={texts.auth.password}
          type="password"
          autoComplete="current-password"
          error={Boolean(errors.password)}
          helperText={errors.password?.message}
        />
        <Button type="submit" variant="contained" size="large" loading={login.isPending}>
          {texts.auth.submit}
        </Button>
        <Link component={RouterLink} to={paths.resetPassword.getHref()} sx={{ alignSelf: 'center' }}>
          {texts.auth.forgotPassword}
        </Link>
      </Stack>
    </form>
  );
}
