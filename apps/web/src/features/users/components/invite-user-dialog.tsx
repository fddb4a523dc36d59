import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { inviteUserBodySchema, ROLE_LABELS, ROLES } from '@pledgewatch/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/users/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useInviteUser } from '../api/invite-user';

const t = texts.users;
const FIELDS = ['email', 'fullName', 'role'] as const;
const EMPTY = { email: '', fullName: '', role: 'analyst' as const };

export function InviteUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const invite = useInviteUser();
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(inviteUserBodySchema), defaultValues: EMPTY });

  const close = () => {
    reset(EMPTY);
    setFormError(null);
    onClose();
  };

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    invite.mutate(values, {
      onSuccess: () => {
        toast.success(t.invited);
        close();
      },
      onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
    });
  });

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="invite-user-title">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="invite-user-title">{t.inviteTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormAlert message={formError} />
            <TextField
              {...register('email')}
              label={t.email}
              type="email"
              autoFocus
              error={Boolean(errors.email)}
              helperText={errors.email?.message}
            />
            <TextField
              {...register('fullName')}
              label={t.fullName}
              error={Boolean(errors.fullName)}
              helperText={errors.fullName?.message}
            />
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <TextField
                  {...field}
                  select
                  label={t.role}
                  error={Boolean(errors.role)}
                  helperText={errors.role?.message}
                >
                  {ROLES.map((role) => (
                    <MenuItem key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close}>{texts.common.cancel}</Button>
          <Button type="submit" variant="contained" loading={invite.isPending}>
            {t.inviteSubmit}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
