import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { useVerifyEmail } from '../api/verify-email';

export function VerifyEmailStatus({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const verification = useVerifyEmail(token);

  useEffect(() => {
    if (verification.isSuccess) {
      // The verified flag or a confirmed new address changes the user and the profile: refetch all.
      // The verification itself is excluded: its token is spent.
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== queryKeys.verifyEmail.all[0],
      });
    }
  }, [verification.isSuccess, queryClient]);

  if (!token) {
    return <Alert severity="warning">{texts.verifyEmail.missingToken}</Alert>;
  }
  if (verification.isPending) {
    return (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
        <CircularProgress size={24} />
        <Typography>{texts.verifyEmail.pending}</Typography>
      </Stack>
    );
  }
  if (verification.isError) {
    return (
      <Alert severity="error" role="alert">
        {getErrorMessage(verification.error)}
      </Alert>
    );
  }
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Alert severity="success" role="status" sx={{ alignSelf: 'stretch' }}>
        {texts.verifyEmail.success}
      </Alert>
      <Button component={RouterLink} to={paths.settings.getHref()} variant="outlined">
        {texts.verifyEmail.toSettings}
      </Button>
    </Stack>
  );
}
