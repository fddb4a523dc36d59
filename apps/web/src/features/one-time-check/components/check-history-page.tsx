import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ITEM_KINDS, type ItemKind, type OneTimeCheckSummary } from '@pledgewatch/contract';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { FilterDrawer } from '@/components/ui/filter-drawer';
import { Page } from '@/components/ui/page';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { texts } from '@/features/one-time-check/texts';
import { formatDateTime, formatNumber } from '@/lib/format';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOneTimeChecks } from '../api/get-one-time-checks';
import { CheckStatusChip } from './check-status-chip';

const t = texts.oneTimeCheck.history;

const resultsHref = (id: string) => `${paths.oneTimeCheckResults.getHref()}?${new URLSearchParams({ id })}`;

/** The checks' columns; a phone card is headed by the identifier with the status at its right. */
const columns: ResponsiveColumn<OneTimeCheckSummary>[] = [
  {
    id: 'number',
    header: t.number,
    card: 'secondary',
    cellSx: { whiteSpace: 'nowrap' },
    cell: (check) => (
      <Link component={RouterLink} to={resultsHref(check.id)} onClick={(event) => event.stopPropagation()}>
        {check.number}
      </Link>
    ),
  },
  {
    id: 'identifier',
    header: t.identifier,
    card: 'title',
    cell: (check) => (
      <>
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
      </>
    ),
  },
  {
    id: 'status',
    header: t.status,
    card: 'actions',
    cell: (check) => <CheckStatusChip status={check.status} />,
  },
  {
    id: 'findings',
    header: t.findings,
    align: 'right',
    cell: (check) => (
      <Typography
        variant="body2"
        component="span"
        sx={{ fontWeight: check.findingsCount > 0 ? 600 : undefined }}
      >
        {formatNumber(check.findingsCount)}
      </Typography>
    ),
  },
  { id: 'checkedBy', header: t.checkedBy, cell: (check) => check.createdBy.fullName },
  {
    id: 'checkedAt',
    header: t.checkedAt,
    card: 'secondary',
    cellSx: { whiteSpace: 'nowrap' },
    cell: (check) => formatDateTime(check.createdAt),
  },
];

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
        <FilterDrawer activeCount={(search.trim() ? 1 : 0) + (kind ? 1 : 0)}>
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
        </FilterDrawer>
        <TableQueryState query={checks} />
        <ResponsiveTable
          rows={checks.data?.items ?? []}
          columns={columns}
          getRowId={(check) => check.id}
          ariaLabel={t.title}
          rowOptions={(check) => ({ testId: 'check-row', onClick: () => navigate(resultsHref(check.id)) })}
          showEmpty={Boolean(checks.data)}
          empty={debouncedSearch || kind ? t.emptyFiltered : t.empty}
        />
        <ServerPagination count={checks.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
      </Paper>
    </Page>
  );
}
