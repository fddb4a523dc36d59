import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { ITEM_ORIGIN_LABELS, type ItemStatus, type MonitoringItem } from '@pledgewatch/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ServerPagination } from '@/components/ui/server-pagination';
import { texts } from '@/features/monitoring-items/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import type { ItemSortField } from '../api/get-items';
import { ItemActionsMenu } from './item-actions-menu';
import { ItemStatusChip } from './item-status-chip';
import type { ItemsView } from './use-items-view';
import { IdentifierCell } from './vin-decoding-text';

const t = texts.monitoringItems;
/** Secondary columns give way on phones; the identifier, status and actions stay. */
const WIDE = { display: { xs: 'none', md: 'table-cell' } } as const;
const NOT_PHONE = { display: { xs: 'none', sm: 'table-cell' } } as const;
const SKELETON_ROWS = 5;

type ItemsTableProps = {
  view: ItemsView;
  query: UseQueryResult<{ items: MonitoringItem[]; total: number }>;
  canWrite: boolean;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], checked: boolean) => void;
  onSort: (field: ItemSortField) => void;
  onPage: (page: number, pageSize: number) => void;
  onOpen: (item: MonitoringItem) => void;
  onEdit: (item: MonitoringItem) => void;
  onStatus: (item: MonitoringItem, status: ItemStatus) => void;
  empty: ReactNode;
};

export function ItemsTable({
  view,
  query,
  canWrite,
  selected,
  onSelect,
  onSort,
  onPage,
  onOpen,
  onEdit,
  onStatus,
  empty,
}: ItemsTableProps) {
  const items = query.data?.items ?? [];
  const pageIds = items.map((item) => item.id);
  const selectedOnPage = pageIds.filter((id) => selected.has(id)).length;
  const columns = canWrite ? 9 : 8;

  const sortHeader = (field: ItemSortField, label: string) => (
    <TableSortLabel
      active={view.sort === field}
      direction={view.sort === field ? view.order : 'asc'}
      onClick={() => onSort(field)}
    >
      {label}
    </TableSortLabel>
  );

  return (
    <>
      <Box sx={{ height: 2 }}>{query.isFetching && <LinearProgress sx={{ height: 2 }} />}</Box>
      {query.isError && (
        <Alert severity="error" sx={{ m: 2 }}>
          {getErrorMessage(query.error)}
        </Alert>
      )}
      <TableContainer>
        <Table
          size="small"
          aria-label={view.entity === 'vin' ? t.tableVin : t.tableDocuments}
          sx={{ '& td, & th': { px: 1 }, '& td:first-of-type, & th:first-of-type': { pl: 2 } }}
        >
          <TableHead>
            <TableRow>
              {canWrite && (
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    indeterminate={selectedOnPage > 0 && selectedOnPage < pageIds.length}
                    checked={pageIds.length > 0 && selectedOnPage === pageIds.length}
                    disabled={pageIds.length === 0}
                    onChange={(event) => onSelect(pageIds, event.target.checked)}
                    slotProps={{ input: { 'aria-label': t.selectPage } }}
                  />
                </TableCell>
              )}
              <TableCell>{sortHeader('identifier', view.entity === 'vin' ? t.vin : t.document)}</TableCell>
              <TableCell sx={NOT_PHONE}>{sortHeader('label', t.label)}</TableCell>
              <TableCell sx={WIDE}>{sortHeader('contractNumber', t.contractNumber)}</TableCell>
              <TableCell sx={WIDE}>{t.pledgorName}</TableCell>
              <TableCell>{t.status}</TableCell>
              <TableCell sx={WIDE}>{sortHeader('createdAt', t.added)}</TableCell>
              <TableCell sx={WIDE}>{sortHeader('lastCheckedAt', t.lastCheckedAt)}</TableCell>
              <TableCell align="right" sx={{ width: 56 }} aria-label={texts.common.actions} />
            </TableRow>
          </TableHead>
          <TableBody>
            {query.isPending &&
              Array.from({ length: SKELETON_ROWS }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={index}>
                  <TableCell colSpan={columns}>
                    <Skeleton height={32} />
                  </TableCell>
                </TableRow>
              ))}
            {items.map((item) => (
              <TableRow
                key={item.id}
                hover
                selected={selected.has(item.id)}
                data-testid="item-row"
                onClick={() => onOpen(item)}
                sx={{ cursor: 'pointer' }}
              >
                {canWrite && (
                  <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                    <Checkbox
                      size="small"
                      checked={selected.has(item.id)}
                      onChange={(event) => onSelect([item.id], event.target.checked)}
                      slotProps={{ input: { 'aria-label': t.selectItem(item.displayIdentifier) } }}
                    />
                  </TableCell>
                )}
                <TableCell>
                  <IdentifierCell
                    displayIdentifier={item.displayIdentifier}
                    vin={item.vin}
                    documentTypeLabel={item.documentTypeLabel}
                  />
                </TableCell>
                <TableCell sx={{ ...NOT_PHONE, maxWidth: 240, overflowWrap: 'break-word' }}>
                  <Box sx={{ minWidth: 110 }}>{item.label ?? texts.common.dash}</Box>
                </TableCell>
                <TableCell sx={{ ...WIDE, whiteSpace: 'nowrap' }}>
                  {item.contractNumber ?? texts.common.dash}
                </TableCell>
                <TableCell sx={{ ...WIDE, maxWidth: 240, overflowWrap: 'break-word' }}>
                  <Box sx={{ minWidth: 130 }}>{item.pledgorName ?? texts.common.dash}</Box>
                </TableCell>
                <TableCell>
                  <ItemStatusChip status={item.status} />
                </TableCell>
                <TableCell sx={WIDE}>
                  <Typography variant="body2">{ITEM_ORIGIN_LABELS[item.origin]}</Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(item.createdAt)}
                  </Typography>
                </TableCell>
                <TableCell sx={{ ...WIDE, whiteSpace: 'nowrap' }}>
                  {item.lastCheckedAt ? formatDateTime(item.lastCheckedAt) : t.neverChecked}
                </TableCell>
                <TableCell align="right" onClick={(event) => event.stopPropagation()}>
                  <ItemActionsMenu
                    item={item}
                    canWrite={canWrite}
                    onOpen={() => onOpen(item)}
                    onEdit={() => onEdit(item)}
                    onStatus={(status) => onStatus(item, status)}
                  />
                </TableCell>
              </TableRow>
            ))}
            {query.isSuccess && items.length === 0 && (
              <TableRow>
                <TableCell colSpan={columns} sx={{ py: 5, textAlign: 'center', color: 'text.secondary' }}>
                  {empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination
        count={query.data?.total}
        page={view.page}
        pageSize={view.pageSize}
        onChange={onPage}
      />
    </>
  );
}
