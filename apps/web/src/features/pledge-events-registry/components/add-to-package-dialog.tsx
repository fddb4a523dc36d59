import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@/features/pledge-events-registry/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useAddPackageEvents } from '../api/add-package-events';
import { usePledgePackages } from '../api/get-pledge-packages';

const t = texts.pledgeEventsRegistry;

export function AddToPackageDialog({
  eventIds,
  onClose,
}: {
  eventIds: string[];
  onClose: (done: boolean) => void;
}) {
  const drafts = usePledgePackages({ page: 1, pageSize: 100, status: ['draft'] });
  const [packageId, setPackageId] = useState('');
  const add = useAddPackageEvents({
    onSuccess: (updated) => {
      toast.success(`${updated.name}: ${t.packages.events(updated.eventsCount)}`);
      onClose(true);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const options = drafts.data?.items ?? [];
  return (
    <Dialog open onClose={() => onClose(false)} maxWidth="xs" fullWidth>
      <DialogTitle>{t.addDialog.title}</DialogTitle>
      <DialogContent>
        {drafts.isSuccess && options.length === 0 ? (
          <Alert severity="info">{t.addDialog.none}</Alert>
        ) : (
          <TextField
            select
            fullWidth
            label={t.addDialog.package}
            value={packageId}
            onChange={(event) => setPackageId(event.target.value)}
            sx={{ mt: 1 }}
          >
            {options.map((option) => (
              <MenuItem key={option.id} value={option.id}>
                {`№ ${option.number} · ${option.name}`}
              </MenuItem>
            ))}
          </TextField>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{texts.common.cancel}</Button>
        <Button
          variant="contained"
          disabled={!packageId}
          loading={add.isPending}
          onClick={() => add.mutate({ packageId, eventIds })}
        >
          {t.addDialog.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
