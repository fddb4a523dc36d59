import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { getErrorMessage } from '@/lib/api-client';

/** The part of a React Query result a table shows above its rows. */
type TableQuery = { isFetching: boolean; isError: boolean; error: unknown };

/** A thin bar while the rows load; it also runs on refetches, when the previous rows stay on screen. */
export function TableLoading({ active }: { active: boolean }) {
  return active ? <LinearProgress sx={{ height: 2 }} /> : null;
}

/** Why the rows could not be loaded, between the table's toolbar and its header. */
export function TableError({ error }: { error: unknown }) {
  return (
    <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
      {getErrorMessage(error)}
    </Alert>
  );
}

/** The loading bar and the error of the query behind a table. */
export function TableQueryState({ query }: { query: TableQuery }) {
  return (
    <>
      <TableLoading active={query.isFetching} />
      {query.isError && <TableError error={query.error} />}
    </>
  );
}

/** The one row a table shows when the server found nothing; `colSpan` is the number of columns. */
export function TableEmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
        {children}
      </TableCell>
    </TableRow>
  );
}
