import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  EVENT_SUBMISSION_STATUS_LABELS,
  EVENT_SUBMISSION_STATUSES,
  PLEDGE_EVENT_KIND_FORM_LABELS,
  PLEDGE_EVENT_KINDS,
} from '@pledgewatch/contract';
import { DateField } from '@/components/ui/date-field';
import { texts } from '@/features/pledge-events-registry/texts';
import type { PledgeEventsFilter } from '../api/get-pledge-events';

const t = texts.pledgeEventsRegistry;

export type RegistryFilters = Omit<PledgeEventsFilter, 'page' | 'pageSize'>;

/** A single-choice filter as the query's list: the value when it is one of `values`, else no filter. */
const oneOf = <T extends string>(values: readonly T[], value: string): T[] | undefined =>
  values.includes(value as T) ? [value as T] : undefined;

/** How many filters narrow the list now (the phone's «Фильтры» button shows it). */
export const activeFilterCount = (filters: RegistryFilters) =>
  Object.values(filters).filter((value) => value !== undefined && value !== '').length;

/** The registry's filters: a grid of fields, in one row on desktops and in the drawer on phones. */
export function RegistryFiltersForm({
  filters,
  set,
}: {
  filters: RegistryFilters;
  set: (patch: RegistryFilters) => void;
}) {
  return (
    <Box sx={{ p: 2 }}>
      <Grid container spacing={1.5} sx={{ alignItems: 'center' }}>
        <Grid size={{ xs: 6, md: 2 }}>
          <TextField
            select
            size="small"
            fullWidth
            label={t.filters.kind}
            value={filters.kind?.[0] ?? ''}
            onChange={(event) => set({ kind: oneOf(PLEDGE_EVENT_KINDS, event.target.value) })}
          >
            <MenuItem value="">{t.filters.allKinds}</MenuItem>
            {PLEDGE_EVENT_KINDS.map((kind) => (
              <MenuItem key={kind} value={kind}>
                {PLEDGE_EVENT_KIND_FORM_LABELS[kind]}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <TextField
            select
            size="small"
            fullWidth
            label={t.filters.status}
            value={filters.status?.[0] ?? ''}
            onChange={(event) => set({ status: oneOf(EVENT_SUBMISSION_STATUSES, event.target.value) })}
          >
            <MenuItem value="">{t.filters.allStatuses}</MenuItem>
            {EVENT_SUBMISSION_STATUSES.map((status) => (
              <MenuItem key={status} value={status}>
                {EVENT_SUBMISSION_STATUS_LABELS[status]}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <DateField
            size="small"
            label={t.filters.from}
            value={filters.from ?? ''}
            onChange={(value) => set({ from: value || undefined })}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <DateField
            size="small"
            label={t.filters.to}
            value={filters.to ?? ''}
            onChange={(value) => set({ to: value || undefined })}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormControlLabel
            control={
              <Switch
                checked={Boolean(filters.lapsing)}
                onChange={(_, checked) => set({ lapsing: checked || undefined })}
              />
            }
            label={t.filters.lapsing}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            size="small"
            fullWidth
            label={t.filters.vin}
            value={filters.vin ?? ''}
            onChange={(event) => set({ vin: event.target.value || undefined })}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            size="small"
            fullWidth
            label={t.filters.pledgor}
            value={filters.pledgor ?? ''}
            onChange={(event) => set({ pledgor: event.target.value || undefined })}
          />
        </Grid>
        <Grid size={{ xs: 9, md: 3 }}>
          <TextField
            size="small"
            fullWidth
            label={t.filters.registrationNumber}
            value={filters.registrationNumber ?? ''}
            onChange={(event) => set({ registrationNumber: event.target.value || undefined })}
          />
        </Grid>
        <Grid size={{ xs: 3, md: 1 }}>
          <Button
            onClick={() =>
              set({
                kind: undefined,
                status: undefined,
                from: undefined,
                to: undefined,
                vin: undefined,
                pledgor: undefined,
                registrationNumber: undefined,
                lapsing: undefined,
              })
            }
          >
            {t.filters.reset}
          </Button>
        </Grid>
      </Grid>
    </Box>
  );
}
