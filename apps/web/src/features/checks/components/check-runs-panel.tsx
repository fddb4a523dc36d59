import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { PAGE_SIZE_OPTIONS } from '@/config/constants';
import { texts } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { isRunActive, useCheckRuns } from '../api/get-check-runs';
import { useStartCheckRun } from '../api/start-check-run';
import { CheckRunRow } from './check-run-row';

const t = texts.checks.runs;

const RUNS_PAGE_SIZE = 10;

/** The organisation's regular check runs; the newest is open, and the list polls while one runs. */
export function CheckRunsPanel({ canStart }: { canStart: boolean }) {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(RUNS_PAGE_SIZE);
  // null: the default (the newest run open); otherwise the ids the user toggled open.
  const [opened, setOpened] = useState<Set<string> | null>(null);
  const runs = useCheckRuns({ page: page + 1, pageSize });
  const items = runs.data?.items ?? [];
  const active = items.some(isRunActive);
  const start = useStartCheckRun({
    onSuccess: (run) => {
      toast.success(t.started);
      setPage(0);
      setOpened(new Set([run.id]));
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const openIds = opened ?? new Set(items[0] && page === 0 ? [items[0].id] : []);

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
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ p: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <div>
          <Typography variant="h6" component="h2">
            {t.heading}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t.hint}
          </Typography>
        </div>
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
      </Stack>
      {runs.isFetching && <LinearProgress sx={{ height: 2 }} />}
      {runs.isError && (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {getErrorMessage(runs.error)}
        </Alert>
      )}
      <TableContainer>
        <Table size="small" aria-label={t.heading}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>{t.createdAt}</TableCell>
              <TableCell>{t.status}</TableCell>
              <TableCell>{t.progress}</TableCell>
              <TableCell align="right">{t.eventsCreated}</TableCell>
              <TableCell>{t.startedAt}</TableCell>
              <TableCell>{t.finishedAt}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((run) => (
              <CheckRunRow
                key={run.id}
                run={run}
                open={openIds.has(run.id)}
                onToggle={() => toggle(run.id)}
              />
            ))}
            {runs.data && items.length === 0 && (
              <TableRow>
                <TableCell colSpan={7} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                  {t.empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={runs.data?.total ?? 0}
        page={page}
        onPageChange={(_, next) => setPage(next)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[RUNS_PAGE_SIZE, ...PAGE_SIZE_OPTIONS.filter((size) => size > RUNS_PAGE_SIZE)]}
        onRowsPerPageChange={(event) => {
          setPageSize(Number(event.target.value));
          setPage(0);
        }}
      />
    </Paper>
  );
}
