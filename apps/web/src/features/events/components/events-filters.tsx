import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { EventTypeSelect, SeveritySelect, SourceSelect } from '@/components/events/event-filter-selects';
import { DateField } from '@/components/ui/date-field';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/features/events/texts';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { type EventsView, type EventsViewKey, hasFilters } from './use-events-view';

const t = texts.events.filters;

type EventsFiltersProps = {
  view: EventsView;
  onChange: (changes: Partial<Record<EventsViewKey, string | string[] | number | null>>) => void;
  onReset: () => void;
};

export function EventsFilters({ view, onChange, onReset }: EventsFiltersProps) {
  const [search, setSearch] = useState(view.search);
  const debounced = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // Only the debounced text drives the URL.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL is written when the typed text settles, not when it changes
  useEffect(() => {
    if (debounced !== view.search.trim()) {
      onChange({ search: debounced });
    }
  }, [debounced]);
  // «Сбросить» or an opened saved view changes the URL; the box follows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the URL's search moves the box
  useEffect(() => {
    if (view.search.trim() !== debounced) {
      setSearch(view.search);
    }
  }, [view.search]);

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        p: 2,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
      }}
    >
      <TextField
        size="small"
        type="search"
        label={t.search}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <DateField
        size="small"
        label={t.from}
        value={view.from}
        max={view.to || undefined}
        onChange={(value) => onChange({ from: value })}
      />
      <DateField
        size="small"
        label={t.to}
        value={view.to}
        min={view.from || undefined}
        onChange={(value) => onChange({ to: value })}
      />
      <TextField
        select
        size="small"
        label={t.read}
        value={view.read}
        onChange={(event) =>
          onChange({
            read: event.target.value === 'unread' ? 'false' : event.target.value === 'read' ? 'true' : null,
          })
        }
      >
        <MenuItem value="all">{t.readAll}</MenuItem>
        <MenuItem value="unread">{t.readUnread}</MenuItem>
        <MenuItem value="read">{t.readRead}</MenuItem>
      </TextField>
      <EventTypeSelect
        label={t.type}
        value={view.type}
        allLabel={t.allTypes}
        onChange={(value) => onChange({ type: value })}
      />
      <SeveritySelect
        label={t.severity}
        value={view.severity}
        allLabel={t.allSeverities}
        onChange={(value) => onChange({ severity: value })}
      />
      <SourceSelect
        label={t.source}
        value={view.source}
        allLabel={t.allSources}
        onChange={(value) => onChange({ source: value })}
      />
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Button onClick={onReset} disabled={!hasFilters(view)}>
          {t.reset}
        </Button>
      </Box>
    </Box>
  );
}
