import CloseIcon from '@mui/icons-material/Close';
import FilterListIcon from '@mui/icons-material/FilterList';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import type { Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useId, useState } from 'react';
import { texts } from '@/config/texts';

const t = texts.responsive;

type FilterDrawerProps = {
  /** Filters that narrow the list now; the phone button shows the number. */
  activeCount: number;
  /** Beside the button on phones (e.g. the time zone note), inline on desktops as the children. */
  aside?: ReactNode;
  /** `auto` follows the screen: the drawer below `sm`, as the responsive table's cards. */
  layout?: 'auto' | 'inline' | 'drawer';
  /** The filters as the desktop shows them in a row; they apply at once in both forms. */
  children: ReactNode;
};

/**
 * The filters of a list: inline on desktops, behind a «Фильтры» button on phones, where they open
 * in a drawer from the bottom and the list stays the screen's first thing.
 */
export function FilterDrawer({ activeCount, aside, layout = 'auto', children }: FilterDrawerProps) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  const titleId = useId();
  if (layout === 'inline' || (layout === 'auto' && !phone)) {
    return <>{children}</>;
  }
  return (
    <>
      <Stack
        direction="row"
        spacing={1}
        sx={{ p: 1.5, alignItems: 'center', justifyContent: 'space-between' }}
      >
        <Button
          variant="outlined"
          startIcon={
            <Badge badgeContent={activeCount} color="primary">
              <FilterListIcon />
            </Badge>
          }
          onClick={() => setOpen(true)}
          aria-haspopup="dialog"
        >
          {activeCount > 0 ? t.filtersCount(activeCount) : t.filters}
        </Button>
        {aside}
      </Stack>
      <Drawer
        anchor="bottom"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-labelledby': titleId,
            sx: { maxHeight: '85dvh', borderTopLeftRadius: 12, borderTopRightRadius: 12 },
          },
        }}
      >
        <Stack direction="row" sx={{ px: 2, pt: 1.5, alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id={titleId} variant="h6" component="h2">
            {t.filters}
          </Typography>
          <IconButton aria-label={t.closeFilters} onClick={() => setOpen(false)}>
            <CloseIcon />
          </IconButton>
        </Stack>
        <Box sx={{ overflowY: 'auto' }}>{children}</Box>
        <Box sx={{ p: 2, pt: 1 }}>
          <Button fullWidth variant="contained" onClick={() => setOpen(false)}>
            {t.showResults}
          </Button>
        </Box>
      </Drawer>
    </>
  );
}
