import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type MonitoringItem, updateItemBodySchema } from '@pledgewatch/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/monitoring-items/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useUpdateItem } from '../api/update-item';

const t = texts.monitoringItems;
const FIELDS = ['label', 'contractNumber', 'pledgorName'] as const;
const editSchema = updateItemBodySchema.pick({ label: true, contractNumber: true, pledgorName: true });

/** Label, contract and pledgor of one item; the identifier itself never changes. */
export function EditItemDialog({ item, onClose }: { item: MonitoringItem | null; onClose: () => void }) {
  // Remounted per item so the form starts from that item's values.
  return item ? <EditItemForm key={item.id} item={item} onClose={onClose} /> : null;
}

function EditItemForm({ item, onClose }: { item: MonitoringItem; onClose: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const update = useUpdateItem();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(editSchema),
    mode: 'onChange',
    defaultValues: {
      label: item.label ?? '',
      contractNumber: item.contractNumber ?? '',
      pledgorName: item.pledgorName ?? '',
    },
  });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    update.mutate(
      { id: item.id, data: values },
      {
        onSuccess: () => {
          toast.success(t.saved);
          onClose();
        },
        onError: (error) => setFormError(applyServerErrors(error, setError, FIELDS)),
      },
    );
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-item-title">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="edit-item-title">{t.editTitle(item.displayIdentifier)}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormAlert message={formError} />
            <TextField
              {...register('label')}
              label={t.label}
              autoFocus
              error={Boolean(errors.label)}
              helperText={errors.label?.message ?? t.labelHint}
            />
            <TextField
              {...register('contractNumber')}
              label={t.contractNumber}
              error={Boolean(errors.contractNumber)}
              helperText={errors.contractNumber?.message}
            />
            <TextField
              {...register('pledgorName')}
              label={t.pledgorName}
              error={Boolean(errors.pledgorName)}
              helperText={errors.pledgorName?.message}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{texts.common.cancel}</Button>
          <Button type="submit" variant="contained" loading={update.isPending}>
            {texts.common.save}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
