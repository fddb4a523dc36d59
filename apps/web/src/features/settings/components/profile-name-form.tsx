import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ROLE_LABELS, type User, updateProfileBodySchema } from '@pledgewatch/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/settings/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useUpdateProfile } from '../api/update-profile';
import { SectionCard } from './section-card';

const FIELDS = ['fullName'] as const;

export function ProfileNameForm({ user }: { user: User }) {
  const [formError, setFormError] = useState<string | null>(null);
  const update = useUpdateProfile();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isDirty },
  } = useForm({
    resolver: zodResolver(updateProfileBodySchema),
    defaultValues: { fullName: user.fullName },
  });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    update.mutate(values, {
      onSuccess: () => {
        reset(values);
        toast.success(texts.settings.profile.saved);
      },
      onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
    });
  });

  return (
    <SectionCard title={texts.settings.profile.heading}>
      <form onSubmit={onSubmit} noValidate>
        <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
          <FormAlert message={formError} />
          <TextField
            {...register('fullName')}
            label={texts.settings.profile.fullName}
            autoComplete="name"
            error={Boolean(errors.fullName)}
            helperText={errors.fullName?.message}
          />
          <TextField
            label={texts.settings.profile.organisation}
            value={user.organisation.name}
            slotProps={{ input: { readOnly: true } }}
          />
          <TextField
            label={texts.settings.profile.role}
            value={ROLE_LABELS[user.role]}
            slotProps={{ input: { readOnly: true } }}
          />
          <Button
            type="submit"
            variant="contained"
            loading={update.isPending}
            disabled={!isDirty}
            sx={{ alignSelf: 'flex-start' }}
          >
            {texts.common.save}
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}
