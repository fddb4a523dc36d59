import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { SAVED_VIEW_NAME_MAX, type SavedView } from '@pledgewatch/contract';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteSavedView, useUpdateSavedView } from './saved-views-api';

const t = texts.savedViews;

/** One view's row: its name (or the rename field) and its actions. */
function ViewRow({ view }: { view: SavedView }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(view.name);
  const update = useUpdateSavedView({ onError: (error) => toast.error(getErrorMessage(error)) });
  const remove = useDeleteSavedView({
    onSuccess: (removed) => toast.success(t.removed(removed.name)),
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const rename = () => {
    if (name.trim() && name.trim() !== view.name) {
      update.mutate(
        { id: view.id, name: name.trim() },
        {
          onSuccess: () => {
            setRenaming(false);
            toast.success(t.renamed);
          },
        },
      );
    } else {
      setRenaming(false);
    }
  };

  if (renaming) {
    return (
      <ListItem disableGutters>
        <Stack direction="row" spacing={1} sx={{ width: '100%', alignItems: 'flex-start' }}>
          <TextField
            autoFocus
            size="small"
            fullWidth
            value={name}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                rename();
              } else if (event.key === 'Escape') {
                event.stopPropagation();
                setRenaming(false);
              }
            }}
            slotProps={{
              htmlInput: { maxLength: SAVED_VIEW_NAME_MAX, 'aria-label': t.renameField(view.name) },
            }}
          />
          <Button variant="contained" disabled={!name.trim()} loading={update.isPending} onClick={rename}>
            {t.submit}
          </Button>
        </Stack>
      </ListItem>
    );
  }
  return (
    <ListItem
      disableGutters
      secondaryAction={
        <Stack direction="row">
          <Tooltip title={view.isDefault ? t.unsetDefault(view.name) : t.setDefault(view.name)}>
            <IconButton
              aria-label={view.isDefault ? t.unsetDefault(view.name) : t.setDefault(view.name)}
              aria-pressed={view.isDefault}
              onClick={() => update.mutate({ id: view.id, isDefault: !view.isDefault })}
            >
              {view.isDefault ? <StarIcon color="primary" /> : <StarBorderIcon />}
            </IconButton>
          </Tooltip>
          <Tooltip title={t.rename(view.name)}>
            <IconButton
              aria-label={t.rename(view.name)}
              onClick={() => {
                setName(view.name);
                setRenaming(true);
              }}
            >
              <EditOutlinedIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title={t.remove(view.name)}>
            <IconButton
              aria-label={t.remove(view.name)}
              loading={remove.isPending}
              onClick={() => remove.mutate(view.id)}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Tooltip>
        </Stack>
      }
      sx={{ pr: 17 }}
    >
      <ListItemText
        primary={view.name}
        secondary={view.isDefault ? t.isDefault : undefined}
        slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
      />
    </ListItem>
  );
}

/** The user's views of one list: rename, delete, and which one opens by default. */
export function ManageViewsDialog({ views, onClose }: { views: SavedView[]; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t.manageTitle}</DialogTitle>
      <DialogContent>
        {views.length === 0 ? (
          t.none
        ) : (
          <List dense>
            {views.map((view) => (
              <ViewRow key={view.id} view={view} />
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
