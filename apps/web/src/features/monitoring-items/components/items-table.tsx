import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { ITEM_ORIGIN_LABELS, type ItemStatus, type MonitoringItem } from '@pledgewatch/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CardSortField } from '@/components/ui/card-sort-field';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
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
  query: UseQueryResult<{ items: MonitoringItem[]; total: number; totalIsEstimate?: boolean }>;
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

export function ItemsTable(props: ItemsTableProps) {
  const { view, query, canWrite, selected, onSelect, onSort, onPage, onOpen, empty } = props;
  const items = query.data?.items ?? [];
  const pageIds = items.map((item) => item.id);
  const selectedOnPage = pageIds.filter((id) => selected.has(id)).length;
  const selectPage = (
    <Checkbox
      size="small"
      indeterminate={selectedOnPage > 0 && selectedOnPage < pageIds.length}
      checked={pageIds.length > 0 && selectedOnPage === pageIds.length}
      disabled={pageIds.length === 0}
      onChange={(event) => onSelect(pageIds, event.target.checked)}
      slotProps={{ input: { 'aria-label': t.selectPage } }}
    />
  );

  const identifierLabel = view.entity === 'vin' ? t.vin : t.document;
  const sortOptions: [ItemSortField, string][] = [
    ['createdAt', t.sortByAdded],
    ['identifier', identifierLabel],
    ['label', t.label],
    ['contractNumber', t.contractNumber],
    ['lastCheckedAt', t.sortByLastCheck],
  ];
  const columns = itemColumns(props, selectPage, identifierLabel);

  return (
    <>
      <Box sx={{ height: 2 }}>{query.isFetching && <LinearProgress sx={{ height: 2 }} />}</Box>
      {query.isError && (
        <Alert severity="error" sx={{ m: 2 }}>
          {getErrorMessage(query.error)}
        </Alert>
      )}
      <ResponsiveTable
        rows={items}
        columns={columns}
        getRowId={(item) => item.id}
        ariaLabel={view.entity === 'vin' ? t.tableVin : t.tableDocuments}
        rowOptions={(item) => ({
          testId: 'item-row',
          selected: selected.has(item.id),
          onClick: () => onOpen(item),
        })}
        loading={query.isPending}
        skeletonRows={SKELETON_ROWS}
        showEmpty={query.isSuccess}
        empty={empty}
        cardsHeader={
          // Cards have no column headers: the sort and «select the page» sit above them.
          <Stack
            direction="row"
            useFlexGap
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', pt: 1.5, pb: 1 }}
          >
            <CardSortField
              label={t.sortBy}
              options={sortOptions}
              value={view.sort}
              order={view.order}
              ascendingLabel={t.sortAscending}
              descendingLabel={t.sortDescending}
              onField={onSort}
              onFlip={() => onSort(view.sort)}
            />
            {canWrite && pageIds.length > 0 && (
              <FormControlLabel control={selectPage} label={t.selectPage} sx={{ ml: 0, flexShrink: 0 }} />
            )}
          </Stack>
        }
        dense
      />
      <ServerPagination
        count={query.data?.total}
        page={view.page}
        pageSize={view.pageSize}
        onChange={onPage}
        {...(query.data?.totalIsEstimate && {
          labelDisplayedRows: ({ from, to, count }) => t.rowsOfAbout(from, to, count),
        })}
      />
    </>
  );
}

/** The table's columns (cards show the same cells): selection, identity, contract, status, dates, actions. */
function itemColumns(
  { view, canWrite, selected, onSelect, onSort, onOpen, onEdit, onStatus }: ItemsTableProps,
  selectPage: ReactNode,
  identifierLabel: string,
): ResponsiveColumn<MonitoringItem>[] {
  const sortHeader = (field: ItemSortField, label: string) => (
    <TableSortLabel
      active={view.sort === field}
      direction={view.sort === field ? view.order : 'asc'}
      onClick={() => onSort(field)}
    >
      {label}
    </TableSortLabel>
  );

  return [
    ...(canWrite
      ? [
          {
            id: 'select',
            header: selectPage,
            padding: 'checkbox',
            card: 'leading',
            stopClick: true,
            cell: (item) => (
              <Checkbox
                size="small"
                checked={selected.has(item.id)}
                onChange={(event) => onSelect([item.id], event.target.checked)}
                slotProps={{ input: { 'aria-label': t.selectItem(item.displayIdentifier) } }}
              />
            ),
          } satisfies ResponsiveColumn<MonitoringItem>,
        ]
      : []),
    {
      id: 'identifier',
      header: sortHeader('identifier', identifierLabel),
      label: identifierLabel,
      card: 'title',
      cell: (item) => (
        <IdentifierCell
          displayIdentifier={item.displayIdentifier}
          vin={item.vin}
          documentTypeLabel={item.documentTypeLabel}
        />
      ),
    },
    {
      id: 'label',
      header: sortHeader('label', t.label),
      label: t.label,
      sx: NOT_PHONE,
      cellSx: { maxWidth: 240, overflowWrap: 'anywhere' },
      cell: (item) => <Box sx={{ minWidth: 110 }}>{item.label ?? texts.common.dash}</Box>,
      cardCell: (item) => item.label ?? texts.common.dash,
    },
    {
      id: 'contractNumber',
      header: sortHeader('contractNumber', t.contractNumber),
      label: t.contractNumber,
      sx: WIDE,
      // A bank's own contract numbers can be long unbroken codes: they wrap rather than widen the table.
      cellSx: { maxWidth: 200, overflowWrap: 'anywhere' },
      cell: (item) => <Box sx={{ minWidth: 100 }}>{item.contractNumber ?? texts.common.dash}</Box>,
    },
    {
      id: 'pledgorName',
      header: t.pledgorName,
      sx: WIDE,
      cellSx: { maxWidth: 240, overflowWrap: 'anywhere' },
      cell: (item) => <Box sx={{ minWidth: 130 }}>{item.pledgorName ?? texts.common.dash}</Box>,
      cardCell: (item) => item.pledgorName ?? texts.common.dash,
    },
    { id: 'status', header: t.status, cell: (item) => <ItemStatusChip status={item.status} /> },
    {
      id: 'createdAt',
      header: sortHeader('createdAt', t.added),
      label: t.added,
      sx: WIDE,
      card: 'secondary',
      cell: (item) => (
        <>
          <Typography variant="body2">{ITEM_ORIGIN_LABELS[item.origin]}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(item.createdAt)}
          </Typography>
        </>
      ),
      cardCell: (item) => t.addedCard(ITEM_ORIGIN_LABELS[item.origin], formatDateTime(item.createdAt)),
    },
    {
      id: 'lastCheckedAt',
      header: sortHeader('lastCheckedAt', t.lastCheckedAt),
      label: t.lastCheckedAt,
      // Wide enough for «Последняя» and «проверка (МСК)» with the sort arrow on two lines, not three.
      sx: { ...WIDE, minWidth: 150 },
      cellSx: { whiteSpace: 'nowrap' },
      cell: (item) => (item.lastCheckedAt ? formatDateTime(item.lastCheckedAt) : t.neverChecked),
    },
    {
      id: 'actions',
      header: '',
      align: 'right',
      card: 'actions',
      stopClick: true,
      sx: { width: 56 },
      cell: (item) => (
        <ItemActionsMenu
          item={item}
          canWrite={canWrite}
          onOpen={() => onOpen(item)}
          onEdit={() => onEdit(item)}
          onStatus={(status) => onStatus(item, status)}
        />
      ),
    },
  ];
}
