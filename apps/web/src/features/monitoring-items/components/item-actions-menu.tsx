import ArchiveOutlinedIcon from '@mui/icons-material/ArchiveOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PauseCircleOutlineIcon from '@mui/icons-material/PauseCircleOutlined';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { ItemStatus, MonitoringItem } from '@pledgewatch/contract';
import { useState } from 'react';
import { texts } from '@/features/monitoring-items/texts';

const t = texts.monitoringItems;

type ItemActionsMenuProps = {
  item: MonitoringItem;
  canWrite: boolean;
  onOpen: () => void;
  onEdit: () => void;
  onStatus: (status: ItemStatus) => void;
};

/** Per-row actions; viewers only get «Подробнее». */
export function ItemActionsMenu({ item, canWrite, onOpen, onEdit, onStatus }: ItemActionsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const run = (action: () => void) => () => {
    setAnchor(null);
    action();
  };

  return (
    <>
      <IconButton
        size="small"
        aria-label={t.rowActions(item.displayIdentifier)}
        aria-haspopup="menu"
        onClick={(event) => {
          event.stopPropagation();
          setAnchor(event.currentTarget);
        }}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        onClick={(event) => event.stopPropagation()}
      >
        <MenuItem onClick={run(onOpen)}>
          <ListItemIcon>
            <VisibilityOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t.open}</ListItemText>
        </MenuItem>
        {canWrite && (
          <MenuItem onClick={run(onEdit)}>
            <ListItemIcon>
              <EditOutlinedIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t.edit}</ListItemText>
          </MenuItem>
        )}
        {canWrite && item.status === 'active' && (
          <MenuItem onClick={run(() => onStatus('paused'))}>
            <ListItemIcon>
              <PauseCircleOutlineIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t.pause}</ListItemText>
          </MenuItem>
        )}
        {canWrite && item.status !== 'active' && (
          <MenuItem onClick={run(() => onStatus('active'))}>
            <ListItemIcon>
              <PlayCircleOutlineIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{item.status === 'archived' ? t.restore : t.resume}</ListItemText>
          </MenuItem>
        )}
        {canWrite && item.status !== 'archived' && (
          <MenuItem onClick={run(() => onStatus('archived'))} sx={{ color: 'error.main' }}>
            <ListItemIcon sx={{ color: 'inherit' }}>
              <ArchiveOutlinedIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t.archive}</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
