import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { SAVED_VIEW_NAME_MAX, type SavedViewList } from '@pledgewatch/contract';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useCreateSavedView } from './saved-views-api';

const t = texts.savedViews;

/** Names the list's current filters and sort and saves them as a view of the user's own. */
export function SaveViewDialog({
  list,
  query,
  onClose,
}: {
  list: SavedViewList;
  query: string;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const titleId = useId();
  const create = useCreateSavedView({
    onSuccess: (view) => {
      toast.success(t.saved(view.name));
      onClose();
    },
  });
  const submit = () => {
    if (name.trim()) {
      create.mutate({ list, name: name.trim(), query, isDefault });
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t.saveTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t.saveHint}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          label={t.name}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            create.reset();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              submit();
            }
          }}
          error={create.isError}
          helperText={create.isError ? getErrorMessage(create.error) : undefined}
          slotProps={{ htmlInput: { maxLength: SAVED_VIEW_NAME_MAX } }}
        />
        <FormControlLabel
          sx={{ mt: 1 }}
          control={<Checkbox checked={isDefault} onChange={(_, checked) => setIsDefault(checked)} />}
          label={t.makeDefault}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button variant="contained" disabled={!name.trim()} loading={create.isPending} onClick={submit}>
          {t.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
