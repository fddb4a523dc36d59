import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { type SavedViewList, savedViewQuery } from '@pledgewatch/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { texts } from '@/config/texts';
import { useUrlState } from '@/lib/use-url-state';
import { ManageViewsDialog } from './manage-views-dialog';
import { SaveViewDialog } from './save-view-dialog';
import { useSavedViews } from './saved-views-api';

const t = texts.savedViews;

/**
 * A list's saved views (objects, events, the pledge registry): a menu that opens a view (the list
 * takes its filters and sort from the URL), saves the current one and manages them. A view is the
 * list's query string, so the three lists share this one component. Opened without a query string,
 * the list takes the user's default view once.
 */
export function SavedViewsMenu({ list }: { list: SavedViewList }) {
  const [params, setParams] = useUrlState();
  const current = savedViewQuery(list, params.toString());
  const views = useSavedViews(list);
  const items = views.data?.items ?? [];
  const active = items.find((view) => view.query === current);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<'save' | 'manage' | null>(null);
  const menuId = useId();

  // The default view applies to a bare list URL only, and only on arrival: a user who then resets
  // the filters sees the whole list.
  const arrivedBare = useRef(params.size === 0);
  const defaultChecked = useRef(false);
  useEffect(() => {
    if (defaultChecked.current || !views.data) {
      return;
    }
    defaultChecked.current = true;
    const fallback = views.data.items.find((view) => view.isDefault);
    if (fallback && arrivedBare.current) {
      setParams((now) => (now.size === 0 ? new URLSearchParams(fallback.query) : now), { replace: true });
    }
  }, [views.data, setParams]);

  const open = (query: string) => {
    setAnchor(null);
    // The page and any open record are left behind: a view starts at its first page.
    setParams(new URLSearchParams(query));
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<BookmarkBorderIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ maxWidth: { xs: 220, sm: 320 }, whiteSpace: 'nowrap' }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {active ? t.buttonNamed(active.name) : t.button}
        </span>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-label': t.menuLabel }, paper: { sx: { maxWidth: 360 } } }}
      >
        {items.length === 0 && <MenuItem disabled>{t.none}</MenuItem>}
        {items.map((view) => (
          <MenuItem key={view.id} selected={view.id === active?.id} onClick={() => open(view.query)}>
            <ListItemText
              primary={view.name}
              secondary={view.isDefault ? t.isDefault : undefined}
              slotProps={{ primary: { noWrap: true } }}
            />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setDialog('save');
          }}
        >
          {t.save}
        </MenuItem>
        <MenuItem
          disabled={items.length === 0}
          onClick={() => {
            setAnchor(null);
            setDialog('manage');
          }}
        >
          {t.manage}
        </MenuItem>
      </Menu>
      {dialog === 'save' && <SaveViewDialog list={list} query={current} onClose={() => setDialog(null)} />}
      {dialog === 'manage' && <ManageViewsDialog views={items} onClose={() => setDialog(null)} />}
    </>
  );
}
