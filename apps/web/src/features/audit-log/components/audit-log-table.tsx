import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { auditActionLabel, auditEntityLabel, describeAuditDetails } from '@pledgewatch/contract';
import { useState } from 'react';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableEmptyRow, TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { texts } from '@/features/audit-log/texts';
import { formatMoscowDateTime } from '@/lib/format';
import { usePagination } from '@/lib/pagination';
import { type AuditFilters, auditExportUrl, useAuditFacets, useAuditLog } from '../api/get-audit-log';

const t = texts.auditLog;
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
  const select = (key: 'actorId' | 'action' | 'entity', label: string, options: [string, string][]) => (
    <TextField
      select
      size="small"
      label={label}
      value={filters[key]}
      onChange={setFilter(key)}
      sx={{ minWidth: 200 }}
    >
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
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ px: 2, pb: 2, flexWrap: 'wrap', rowGap: 2 }}
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
        <TextField
          size="small"
          type="date"
          label={t.from}
          value={filters.from}
          onChange={setFilter('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label={t.to}
          value={filters.to}
          onChange={setFilter('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      <TableQueryState query={log} />
      <TableContainer>
        <Table size="small" aria-label={t.heading}>
          <TableHead>
            <TableRow>
              <TableCell>{t.when}</TableCell>
              <TableCell>{t.actor}</TableCell>
              <TableCell>{t.action}</TableCell>
              <TableCell>{t.entity}</TableCell>
              <TableCell>{t.changes}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {log.data?.items.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMoscowDateTime(entry.createdAt)}</TableCell>
                <TableCell>
                  {entry.actor ? (
                    <>
                      {entry.actor.fullName}
                      <Typography variant="body2" color="text.secondary">
                        {entry.actor.email}
                      </Typography>
                    </>
                  ) : (
                    t.system
                  )}
                </TableCell>
                <TableCell>{auditActionLabel(entry.action)}</TableCell>
                <TableCell>{auditEntityLabel(entry.entity)}</TableCell>
                <TableCell>
                  {describeAuditDetails(entry.details).map((line) => (
                    <Typography key={line} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {line}
                    </Typography>
                  ))}
                </TableCell>
              </TableRow>
            ))}
            {log.data && log.data.items.length === 0 && <TableEmptyRow colSpan={5}>{t.empty}</TableEmptyRow>}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination count={log.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
    </Paper>
  );
}
