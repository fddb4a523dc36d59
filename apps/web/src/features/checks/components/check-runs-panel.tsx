import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { PAGE_SIZE_OPTIONS } from '@/config/constants';
import { texts } from '@/features/checks/texts';
import { getErrorMessage } from '@/lib/api-client';
import { usePagination } from '@/lib/pagination';
import { isRunActive, useCheckRuns } from '../api/get-check-runs';
import { useStartCheckRun } from '../api/start-check-run';
import { CheckRunDetail, checkRunColumns } from './check-run-columns';

const t = texts.checks.runs;

const RUNS_PAGE_SIZE = 10;

/** The organisation's regular check runs; the newest is open, and the list polls while one runs. */
export function CheckRunsPanel({ canStart }: { canStart: boolean }) {
  const { page, pageSize, setPage, onChange } = usePagination(RUNS_PAGE_SIZE);
  // null: the default (the newest run open); otherwise the ids the user toggled open.
  const [opened, setOpened] = useState<Set<string> | null>(null);
  const runs = useCheckRuns({ page, pageSize });
  const items = runs.data?.items ?? [];
  const active = items.some(isRunActive);
  const start = useStartCheckRun({
    onSuccess: (run) => {
      toast.success(t.started);
      setPage(1);
      setOpened(new Set([run.id]));
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const openIds = opened ?? new Set(items[0] && page === 1 ? [items[0].id] : []);

  const toggle = (id: string) => {
    const next = new Set(openIds);
    if (next.has(id)) {
      next.delete(id);
    } else {
      next.add(id);
    }
    setOpened(next);
  };

  return (
    <Paper variant="outlined" component="section" aria-label={t.heading}>
      <TableToolbar title={t.heading} hint={t.hint}>
        {canStart && (
          <Button
            variant="contained"
            startIcon={<PlayArrowIcon />}
            loading={start.isPending}
            disabled={active}
            onClick={() => start.mutate()}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {t.start}
          </Button>
        )}
      </TableToolbar>
      <TableQueryState query={runs} />
      <ResponsiveTable
        rows={items}
        columns={checkRunColumns({ isOpen: (run) => openIds.has(run.id), onToggle: (run) => toggle(run.id) })}
        getRowId={(run) => run.id}
        ariaLabel={t.heading}
        rowOptions={(run) => ({
          testId: 'run-row',
          data: { status: run.status },
          sx: { '& > td': { borderBottom: openIds.has(run.id) ? 0 : undefined } },
        })}
        detail={(run) => <CheckRunDetail run={run} />}
        detailOpen={(run) => openIds.has(run.id)}
        showEmpty={Boolean(runs.data)}
        empty={t.empty}
      />
      <ServerPagination
        count={runs.data?.total}
        page={page}
        pageSize={pageSize}
        onChange={onChange}
        rowsPerPageOptions={[RUNS_PAGE_SIZE, ...PAGE_SIZE_OPTIONS.filter((size) => size > RUNS_PAGE_SIZE)]}
      />
    </Paper>
  );
}
