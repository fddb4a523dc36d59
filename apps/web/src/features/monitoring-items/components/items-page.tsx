import AddIcon from '@mui/icons-material/Add';
import ArchiveOutlinedIcon from '@mui/icons-material/ArchiveOutlined';
import PauseCircleOutlineIcon from '@mui/icons-material/PauseCircleOutlined';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutlined';
import SearchIcon from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ItemKind, ItemStatus, MonitoringItem } from '@pledgewatch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, type LoaderFunctionArgs } from 'react-router';
import { toast } from 'react-toastify';
import { SavedViewsMenu } from '@/components/saved-views/saved-views-menu';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Page } from '@/components/ui/page';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { texts } from '@/features/monitoring-items/texts';
import { getErrorMessage } from '@/lib/api-client';
import { prefetchWhenSignedIn, useUser } from '@/lib/auth';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { type ItemStatusFilter, itemsQueryOptions, useItems } from '../api/get-items';
import { useUpdateItem } from '../api/update-item';
import { useUpdateItemsStatus } from '../api/update-items-status';
import { EditItemDialog } from './edit-item-dialog';
import { ItemDetailsDrawer } from './item-details-drawer';
import { ItemsTable } from './items-table';
import { type ItemsView, parseItemsView, toItemsQuery, useItemsView } from './use-items-view';

const t = texts.monitoringItems;

export const clientLoader =
  (queryClient: QueryClient) =>
  async ({ request }: LoaderFunctionArgs) => {
    // Start the first page with the route code; the screen shows its own loading and error states.
    const view = parseItemsView(new URL(request.url).searchParams);
    prefetchWhenSignedIn(queryClient, () => queryClient.prefetchQuery(itemsQueryOptions(toItemsQuery(view))));
    return null;
  };

/** Status filter choices; no value is the server's default: everything but the archive. */
const STATUS_FILTER_OPTIONS: { value: ItemStatusFilter | ''; label: string }[] = [
  { value: '', label: t.statusFilter.current },
  { value: 'active', label: t.statusFilter.active },
  { value: 'paused', label: t.statusFilter.paused },
  { value: 'archived', label: t.statusFilter.archived },
  { value: 'all', label: t.statusFilter.all },
];

type PendingStatus = { ids: string[]; status: ItemStatus; label: string | null };

export default function ItemsPage() {
  const user = useUser();
  const canWrite = user !== undefined && user.role !== 'viewer';
  const { view, update } = useItemsView();
  const query = toItemsQuery(view);
  const items = useItems(query);

  const [search, setSearch] = useState(view.search ?? '');
  const debouncedSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // Only the debounced input drives the URL; the URL's own changes must not loop back into it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (debouncedSearch !== (view.search ?? '')) {
      update({ search: debouncedSearch, page: 1 });
    }
  }, [debouncedSearch]);
  // An opened saved view (or the back button) changes the URL's search; the box follows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the URL's search moves the box
  useEffect(() => {
    if ((view.search ?? '') !== debouncedSearch) {
      setSearch(view.search ?? '');
    }
  }, [view.search]);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const viewKey = `${view.entity}|${view.search}|${view.status}|${view.page}|${view.pageSize}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list means a new selection
  useEffect(() => setSelected(new Set()), [viewKey]);

  const [editing, setEditing] = useState<MonitoringItem | null>(null);
  const [confirming, setConfirming] = useState<PendingStatus | null>(null);

  const updateItem = useUpdateItem();
  const bulkStatus = useUpdateItemsStatus();

  const applyStatus = ({ ids, status }: PendingStatus) => {
    const done = () => {
      toast.success(t.statusChanged[status](ids.length));
      setConfirming(null);
      setSelected(new Set());
    };
    const failed = (error: unknown) => toast.error(getErrorMessage(error));
    if (ids.length === 1) {
      updateItem.mutate({ id: ids[0]!, data: { status } }, { onSuccess: done, onError: failed });
    } else {
      bulkStatus.mutate({ ids, status }, { onSuccess: done, onError: failed });
    }
  };

  const requestStatus = (item: MonitoringItem, status: ItemStatus) => {
    const pending = { ids: [item.id], status, label: item.displayIdentifier };
    if (status === 'archived') {
      setConfirming(pending);
    } else {
      applyStatus(pending);
    }
  };

  const hasFilter = Boolean(view.search) || Boolean(view.status);

  return (
    <Page
      title={t.title}
      actions={
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <SavedViewsMenu list="items" />
          {canWrite && (
            <Button
              component={Link}
              to={paths.monitoringUploadForm.getHref()}
              variant="contained"
              startIcon={<AddIcon />}
            >
              {t.add}
            </Button>
          )}
        </Stack>
      }
    >
      <Paper variant="outlined">
        <Tabs
          value={view.entity}
          onChange={(_, entity: ItemKind) => update({ entity, page: 1, item: null })}
          sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab value="vin" label={t.tabVin} />
          <Tab value="document" label={t.tabDocuments} />
        </Tabs>
        <ItemsFilters
          view={view}
          search={search}
          onSearch={setSearch}
          onStatus={(status) => update({ status, page: 1 })}
          total={items.data}
        />

        {canWrite && selected.size > 0 && (
          <BulkActions
            count={selected.size}
            onStatus={(status) => setConfirming({ ids: [...selected], status, label: null })}
            onClear={() => setSelected(new Set())}
          />
        )}

        <ItemsTable
          view={view}
          query={items}
          canWrite={canWrite}
          selected={selected}
          onSelect={(ids, checked) =>
            setSelected((current) => {
              const next = new Set(current);
              for (const id of ids) {
                if (checked) {
                  next.add(id);
                } else {
                  next.delete(id);
                }
              }
              return next;
            })
          }
          onSort={(field) =>
            update({
              sort: field,
              order: view.sort === field && view.order === 'asc' ? 'desc' : 'asc',
              page: 1,
            })
          }
          onPage={(page, pageSize) => update({ page, pageSize })}
          onOpen={(item) => update({ item: item.id })}
          onEdit={setEditing}
          onStatus={requestStatus}
          empty={
            hasFilter ? (
              t.emptyFiltered
            ) : (
              <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
                <span>{view.entity === 'vin' ? t.emptyVin : t.emptyDocuments}</span>
                {canWrite && (
                  <Button
                    component={Link}
                    to={paths.monitoringUploadForm.getHref()}
                    variant="outlined"
                    size="small"
                  >
                    {t.add}
                  </Button>
                )}
              </Stack>
            )
          }
        />
      </Paper>

      <ItemDetailsDrawer
        itemId={view.itemId}
        canWrite={canWrite}
        onClose={() => update({ item: null })}
        onEdit={setEditing}
        onStatus={requestStatus}
      />
      <EditItemDialog item={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t.confirmTitle[confirming.status] : ''}
        message={
          confirming
            ? confirming.label
              ? t.confirmOne[confirming.status](confirming.label)
              : t.confirmMany[confirming.status](confirming.ids.length)
            : ''
        }
        confirmLabel={confirming ? t.confirmAction[confirming.status] : ''}
        danger={confirming?.status === 'archived'}
        pending={updateItem.isPending || bulkStatus.isPending}
        onConfirm={() => confirming && applyStatus(confirming)}
        onClose={() => setConfirming(null)}
      />
    </Page>
  );
}

/** The selected items' actions: pause, resume or archive them all (each asks first), or clear the selection. */
function BulkActions({
  count,
  onStatus,
  onClear,
}: {
  count: number;
  onStatus: (status: ItemStatus) => void;
  onClear: () => void;
}) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{
        px: 2,
        py: 1,
        alignItems: { sm: 'center' },
        bgcolor: 'action.selected',
      }}
      data-testid="bulk-actions"
    >
      <Typography variant="body2" sx={{ fontWeight: 600, mr: { sm: 1 } }}>
        {t.selected(count)}
      </Typography>
      <Button size="small" startIcon={<PauseCircleOutlineIcon />} onClick={() => onStatus('paused')}>
        {t.pause}
      </Button>
      <Button size="small" startIcon={<PlayCircleOutlineIcon />} onClick={() => onStatus('active')}>
        {t.resume}
      </Button>
      <Button
        size="small"
        color="error"
        startIcon={<ArchiveOutlinedIcon />}
        onClick={() => onStatus('archived')}
      >
        {t.archive}
      </Button>
      <Button size="small" color="inherit" onClick={onClear} sx={{ ml: { sm: 'auto' } }}>
        {t.clearSelection}
      </Button>
    </Stack>
  );
}

/** The search box, the status filter and the list's total (exact, or «about» when estimated). */
function ItemsFilters({
  view,
  search,
  onSearch,
  onStatus,
  total,
}: {
  view: ItemsView;
  search: string;
  onSearch: (search: string) => void;
  onStatus: (status: string) => void;
  total: { total: number; totalIsEstimate?: boolean } | undefined;
}) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ p: 2, alignItems: { sm: 'center' } }}>
      <TextField
        size="small"
        type="search"
        label={t.search}
        placeholder={view.entity === 'vin' ? t.searchPlaceholderVin : t.searchPlaceholderDocument}
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        sx={{ flexGrow: 1, maxWidth: { sm: 420 } }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        select
        size="small"
        label={t.status}
        value={view.status ?? ''}
        onChange={(event) => onStatus(event.target.value)}
        sx={{ width: { sm: 240 }, flexShrink: 0 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        {STATUS_FILTER_OPTIONS.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="body2" color="text.secondary" sx={{ ml: { sm: 'auto' }, whiteSpace: 'nowrap' }}>
        {total ? (total.totalIsEstimate ? t.totalAbout(total.total) : t.total(total.total)) : ' '}
      </Typography>
    </Stack>
  );
}
