import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { SEARCH_MIN_LENGTH, searchSignificant } from '@pledgewatch/contract';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { texts } from '@/features/search/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useSearch } from '../api/get-search';
import { hitHref } from './hit-href';
import { optionId, RESULTS_ID, SearchResults } from './search-results';

const t = texts.search;

/** A `/` typed outside a field opens the search, as on most sites with one search box. */
const typingInField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The header's one search: a button (a field-like bar on a desk, an icon on a phone) and `/` open a
 * dialog whose results are grouped by kind; ↑↓ choose, Enter opens, Esc closes.
 */
export function HeaderSearch() {
  const [open, setOpen] = useState(false);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (
        event.key === '/' &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !typingInField(event.target)
      ) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t.open}
        aria-keyshortcuts="/"
        onClick={() => setOpen(true)}
        sx={{ display: { md: 'none' } }}
      >
        <SearchIcon />
      </IconButton>
      <Button
        color="inherit"
        aria-label={t.open}
        aria-keyshortcuts="/"
        onClick={() => setOpen(true)}
        startIcon={<SearchIcon />}
        sx={{
          display: { xs: 'none', md: 'inline-flex' },
          justifyContent: 'flex-start',
          width: 320,
          mr: 1,
          textTransform: 'none',
          bgcolor: 'rgba(255,255,255,0.15)',
          '&:hover': { bgcolor: 'rgba(255,255,255,0.25)' },
        }}
      >
        <Box component="span" sx={{ flexGrow: 1, textAlign: 'left', opacity: 0.85 }}>
          {t.open}…
        </Box>
        <Box
          component="kbd"
          sx={{ px: 0.75, border: 1, borderRadius: 0.5, fontFamily: 'inherit', fontSize: 12, opacity: 0.85 }}
        >
          {t.shortcut}
        </Box>
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullScreen={phone}
        fullWidth
        maxWidth="sm"
        aria-label={t.dialogTitle}
        sx={{ '& .MuiDialog-container': { alignItems: phone ? 'stretch' : 'flex-start' } }}
        slotProps={{ paper: { sx: { mt: phone ? 0 : 8 } } }}
      >
        {open && <SearchPanel onClose={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function SearchPanel({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const query = useDebouncedValue(text.trim(), 250);
  const enough = searchSignificant(query).length >= SEARCH_MIN_LENGTH;
  const search = useSearch({ q: query }, enough);
  const groups = enough ? (search.data?.groups ?? []).filter((group) => group.total > 0 || group.more) : [];
  const options = groups.flatMap((group) => group.hits.map((hit) => hitHref(group.kind, hit)));
  const typedEnough = searchSignificant(text).length >= SEARCH_MIN_LENGTH;

  // New results: the first one is the one Enter opens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the answer changes
  useEffect(() => setActive(0), [search.data]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length > 0) {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const next = (active + step + options.length) % options.length;
        setActive(next);
        document.getElementById(optionId(next))?.scrollIntoView?.({ block: 'nearest' });
      }
    } else if (event.key === 'Enter' && options[active]) {
      event.preventDefault();
      onClose();
      void navigate(options[active]);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 2, pb: 1 }}>
        <TextField
          autoFocus
          fullWidth
          size="small"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t.placeholder}
          slotProps={{
            htmlInput: {
              role: 'combobox',
              'aria-label': t.label,
              'aria-expanded': options.length > 0,
              'aria-controls': RESULTS_ID,
              'aria-autocomplete': 'list',
              'aria-activedescendant': options.length > 0 ? optionId(active) : undefined,
              enterKeyHint: 'search',
              autoComplete: 'off',
              maxLength: 100,
            },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <IconButton aria-label={t.close} onClick={onClose} edge="end">
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ height: 4 }}>
        {enough && search.isFetching && <LinearProgress aria-label={t.searching} />}
      </Box>
      <Box sx={{ overflowY: 'auto', flexGrow: 1, maxHeight: { md: '65vh' } }}>
        {text.trim() !== '' && !typedEnough && (
          <Typography color="text.secondary" sx={{ px: 2, py: 1.5 }}>
            {t.tooShort}
          </Typography>
        )}
        {enough && search.isError && (
          <Alert severity="error" sx={{ mx: 2 }}>
            {getErrorMessage(search.error)}
          </Alert>
        )}
        {enough && search.isSuccess && !search.isPlaceholderData && groups.length === 0 && (
          <Typography color="text.secondary" sx={{ px: 2, py: 1.5 }} role="status">
            {t.nothing(query)}
          </Typography>
        )}
        {groups.length > 0 && (
          <SearchResults
            groups={groups}
            query={query}
            active={active}
            onActivate={setActive}
            onOpen={onClose}
          />
        )}
      </Box>
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider', display: { xs: 'none', md: 'block' } }}
      >
        {t.hint}
      </Typography>
    </Box>
  );
}
