import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableEmptyRow, TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/features/outbox/texts';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOutbox } from '../api/get-outbox';
import { OutboxRow } from './outbox-row';

const t = texts.outbox;

/** The platform's sent mail, for staff (and demo users reading their own reset letters). */
export function OutboxTable() {
  const { page, pageSize, setPage, onChange } = usePagination();
  const [to, setTo] = useState('');
  const debouncedTo = useDebouncedValue(to.trim(), SEARCH_DEBOUNCE_MS);
  const outbox = useOutbox({ page, pageSize, to: debouncedTo || undefined });

  return (
    <Paper variant="outlined">
      <TableToolbar title={t.heading} hint={t.hint}>
        <TextField
          size="small"
          fullWidth={false}
          type="search"
          label={t.filter}
          value={to}
          onChange={(event) => {
            setTo(event.target.value);
            setPage(1);
          }}
          sx={{ minWidth: 260, maxWidth: { sm: 320 } }}
        />
      </TableToolbar>
      <TableQueryState query={outbox} />
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
              <TableEmptyRow colSpan={5}>{t.empty}</TableEmptyRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination count={outbox.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
    </Paper>
  );
}
