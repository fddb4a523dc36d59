import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/features/outbox/texts';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOutbox } from '../api/get-outbox';
import { OutboxBody, outboxColumns } from './outbox-columns';

const t = texts.outbox;

/** The platform's sent mail, for staff (and demo users reading their own reset letters). */
export function OutboxTable() {
  const { page, pageSize, setPage, onChange } = usePagination();
  const [to, setTo] = useState('');
  const debouncedTo = useDebouncedValue(to.trim(), SEARCH_DEBOUNCE_MS);
  const outbox = useOutbox({ page, pageSize, to: debouncedTo || undefined });
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) {
        next.add(id);
      }
      return next;
    });

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
      <ResponsiveTable
        rows={outbox.data?.items ?? []}
        columns={outboxColumns({ isOpen: (mail) => open.has(mail.id), onToggle: (mail) => toggle(mail.id) })}
        getRowId={(mail) => mail.id}
        ariaLabel={t.heading}
        rowOptions={() => ({ testId: 'outbox-row' })}
        detail={(mail) => <OutboxBody mail={mail} />}
        detailOpen={(mail) => open.has(mail.id)}
        showEmpty={Boolean(outbox.data)}
        empty={t.empty}
      />
      <ServerPagination count={outbox.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
    </Paper>
  );
}
