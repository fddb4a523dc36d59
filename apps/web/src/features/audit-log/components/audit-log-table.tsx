import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { auditActionLabel, auditEntityLabel, describeAuditDetails } from '@pledgewatch/contract';
import { useState } from 'react';
import { DateField } from '@/components/ui/date-field';
import { FilterDrawer } from '@/components/ui/filter-drawer';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { texts } from '@/features/audit-log/texts';
import { formatDateTime } from '@/lib/format';
import { usePagination } from '@/lib/pagination';
import { type AuditFilters, auditExportUrl, useAuditFacets, useAuditLog } from '../api/get-audit-log';

const t = texts.auditLog;

type AuditEntry = NonNullable<ReturnType<typeof useAuditLog>['data']>['items'][number];

const AUDIT_COLUMNS: ResponsiveColumn<AuditEntry>[] = [
  {
    id: 'when',
    header: t.when,
    card: 'secondary',
    cellSx: { whiteSpace: 'nowrap' },
    cell: (entry) => formatDateTime(entry.createdAt),
  },
  {
    id: 'actor',
    header: t.actor,
    card: 'title',
    cell: (entry) =>
      entry.actor ? (
        <>
          {entry.actor.fullName}
          <Typography variant="body2" color="text.secondary">
            {entry.actor.email}
          </Typography>
        </>
      ) : (
        t.system
      ),
  },
  { id: 'action', header: t.action, cell: (entry) => auditActionLabel(entry.action) },
  { id: 'entity', header: t.entity, cell: (entry) => auditEntityLabel(entry.entity) },
  {
    id: 'changes',
    header: t.changes,
    card: 'beforeAfter',
    cell: (entry) =>
      describeAuditDetails(entry.details).map((line) => (
        <Typography key={line} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {line}
        </Typography>
      )),
  },
];

const NO_FILTERS: AuditFilters = { actorId: '', action: '', entity: '', from: '', to: '' };

/** The organisation's log of actions for its administrators: who changed what, and when. */
export function AuditLogTable() {
  const { page, pageSize, setPage, onChange } = usePagination();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const facets = useAuditFacets();
  const log = useAuditLog({ page, pageSize, ...filters });
  const setFilter = (key: keyof AuditFilters) => (event: { target: { value: string } }) => {
    setFilters((current) => ({ ...current, [key]: event.target.value }));
    setPage(1);
  };
  const setDate = (key: 'from' | 'to') => (value: string) => setFilter(key)({ target: { value } });
  const select = (key: 'actorId' | 'action' | 'entity', label: string, options: [string, string][]) => (
    <TextField select size="small" label={label} value={filters[key]} onChange={setFilter(key)}>
      <MenuItem value="">{t.any}</MenuItem>
      {options.map(([value, text]) => (
        <MenuItem key={value} value={value}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Paper variant="outlined">
      <TableToolbar title={t.heading} hint={t.hint} rowFrom="md">
        <Stack direction="row" spacing={1}>
          {(['xlsx', 'csv'] as const).map((format) => (
            <Button
              key={format}
              size="small"
              variant="outlined"
              startIcon={<DownloadIcon />}
              href={auditExportUrl(filters, format)}
              download
            >
              {t.export[format]}
            </Button>
          ))}
        </Stack>
      </TableToolbar>
      <FilterDrawer activeCount={Object.values(filters).filter(Boolean).length}>
        {/* A grid, not a wrapping row: wrapped fields of a spaced row kept its left margin (indented lines). */}
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(200px, 1fr))' },
            gap: 2,
            px: 2,
            pb: 2,
          }}
        >
          {select(
            'actorId',
            t.actor,
            (facets.data?.actors ?? []).map((actor) => [actor.id, actor.fullName || actor.email]),
          )}
          {select(
            'action',
            t.action,
            (facets.data?.actions ?? []).map((action) => [action, auditActionLabel(action)]),
          )}
          {select(
            'entity',
            t.entity,
            (facets.data?.entities ?? []).map((entity) => [entity, auditEntityLabel(entity)]),
          )}
          <DateField size="small" label={t.from} value={filters.from} onChange={setDate('from')} />
          <DateField size="small" label={t.to} value={filters.to} onChange={setDate('to')} />
        </Box>
      </FilterDrawer>
      <TableQueryState query={log} />
      <ResponsiveTable
        rows={log.data?.items ?? []}
        columns={AUDIT_COLUMNS}
        getRowId={(entry) => entry.id}
        ariaLabel={t.heading}
        showEmpty={Boolean(log.data)}
        empty={t.empty}
      />
      <ServerPagination count={log.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
    </Paper>
  );
}
