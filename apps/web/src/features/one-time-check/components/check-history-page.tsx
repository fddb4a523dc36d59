import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
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
import { ITEM_KINDS, type ItemKind } from '@pledgewatch/contract';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Page } from '@/components/ui/page';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableEmptyRow, TableQueryState } from '@/components/ui/table-states';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { texts } from '@/features/one-time-check/texts';
import { formatMoscowDateTime, formatNumber } from '@/lib/format';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOneTimeChecks } from '../api/get-one-time-checks';
import { CheckStatusChip } from './check-status-chip';

const t = texts.oneTimeCheck.history;

const resultsHref = (id: string) => `${paths.oneTimeCheckResults.getHref()}?${new URLSearchParams({ id })}`;

/** Past one-time checks of the organisation, paged and searched on the server. */
export default function CheckHistoryPage() {
  const navigate = useNavigate();
  const { page, pageSize, setPage, onChange } = usePagination();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<ItemKind | ''>('');
  const debouncedSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const checks = useOneTimeChecks({
    page,
    pageSize,
    search: debouncedSearch || undefined,
    kind: kind || undefined,
  });

  return (
    <Page
      title={t.title}
      actions={
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          component={RouterLink}
          to={paths.oneTimeCheck.getHref()}
        >
          {texts.oneTimeCheck.results.newCheck}
        </Button>
      }
    >
      <Paper variant="outlined">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ p: 2 }}>
          <TextField
            size="small"
            type="search"
            label={t.search}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
            sx={{ minWidth: { sm: 320 } }}
          />
          <TextField
            select
            size="small"
            label={t.kind}
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as ItemKind | '');
              setPage(1);
            }}
            sx={{ minWidth: 180 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{t.kindAll}</MenuItem>
            {ITEM_KINDS.map((code) => (
              <MenuItem key={code} value={code}>
                {t.kinds[code]}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <TableQueryState query={checks} />
        <TableContainer>
          <Table size="small" aria-label={t.title}>
            <TableHead>
              <TableRow>
                <TableCell>{t.number}</TableCell>
                <TableCell>{t.identifier}</TableCell>
                <TableCell>{t.status}</TableCell>
                <TableCell align="right">{t.findings}</TableCell>
                <TableCell>{t.checkedBy}</TableCell>
                <TableCell>{t.checkedAt}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {checks.data?.items.map((check) => (
                <TableRow
                  key={check.id}
                  hover
                  data-testid="check-row"
                  onClick={() => navigate(resultsHref(check.id))}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Link
                      component={RouterLink}
                      to={resultsHref(check.id)}
                      onClick={(event) => event.stopPropagation()}
                    >
                      {check.number}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <Typography
                      variant="body2"
                      sx={{
                        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                        whiteSpace: 'nowrap',
                      }}
                    >
                      {check.identifierDisplay}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {check.kind === 'vin' ? t.kinds.vin : check.documentTypeLabel}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <CheckStatusChip status={check.status} />
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: check.findingsCount > 0 ? 600 : undefined }}>
                    {formatNumber(check.findingsCount)}
                  </TableCell>
                  <TableCell>{check.createdBy.fullName}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMoscowDateTime(check.createdAt)}</TableCell>
                </TableRow>
              ))}
              {checks.data && checks.data.items.length === 0 && (
                <TableEmptyRow colSpan={6}>
                  {debouncedSearch || kind ? t.emptyFiltered : t.empty}
                </TableEmptyRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <ServerPagination count={checks.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
      </Paper>
    </Page>
  );
}
