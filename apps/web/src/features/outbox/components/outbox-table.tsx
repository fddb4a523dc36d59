import Alert from '@mui/material/Alert';
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
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOutbox } from '../api/get-outbox';
import { OutboxRow } from './outbox-row';

const t = texts.settings.outbox;

/** The platform's sent mail, for staff (and demo users reading their own reset letters). */
export function OutboxTable() {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [to, setTo] = useState('');
  const debouncedTo = useDebouncedValue(to.trim(), SEARCH_DEBOUNCE_MS);
  const outbox = useOutbox({ page: page + 1, pageSize, to: debouncedTo || undefined });

  return (
    <Paper variant="outlined">
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
        <TextField
          size="small"
          fullWidth={false}
          type="search"
          label={t.filter}
          value={to}
          onChange={(event) => {
            setTo(event.target.value);
            setPage(0);
          }}
          sx={{ minWidth: 260, maxWidth: { sm: 320 } }}
        />
      </Stack>
      {outbox.isFetching && <LinearProgress sx={{ height: 2 }} />}
      {outbox.isError && (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {getErrorMessage(outbox.error)}
        </Alert>
      )}
      <TableContainer>
        <Table size="small" aria-label={t.heading}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>{t.to}</TableCell>
              <TableCell>{t.subject}</TableCell>
              <TableCell>{t.status}</TableCell>
              <TableCell>{t.createdAt}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {outbox.data?.items.map((mail) => (
              <OutboxRow key={mail.id} mail={mail} />
            ))}
            {outbox.data && outbox.data.items.length === 0 && (
              <TableRow>
                <TableCell colSpan={5} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                  {t.empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={outbox.data?.total ?? 0}
        page={page}
        onPageChange={(_, next) => setPage(next)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={PAGE_SIZE_OPTIONS}
        onRowsPerPageChange={(event) => {
          setPageSize(Number(event.target.value));
          setPage(0);
        }}
      />
    </Paper>
  );
}
