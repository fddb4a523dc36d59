import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
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
import { texts } from '@/features/users/texts';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUsers } from '../api/get-users';
import { InviteUserDialog } from './invite-user-dialog';
import { UserRow } from './user-row';

const t = texts.users;

/** Organisation members, paged and searched on the server. */
export function UsersTable({ currentUserId }: { currentUserId: string }) {
  const { page, pageSize, setPage, onChange } = usePagination();
  const [search, setSearch] = useState('');
  const [inviteOpen, setInviteOpen] = useState(false);
  const debouncedSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const users = useUsers({ page, pageSize, search: debouncedSearch || undefined });

  return (
    <Paper variant="outlined">
      <TableToolbar title={t.heading}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            size="small"
            fullWidth={false}
            type="search"
            label={t.search}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
            sx={{ minWidth: 260 }}
          />
          <Button
            variant="contained"
            startIcon={<PersonAddAlt1OutlinedIcon />}
            onClick={() => setInviteOpen(true)}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {t.invite}
          </Button>
        </Stack>
      </TableToolbar>
      <TableQueryState query={users} />
      <TableContainer>
        <Table size="small" aria-label={t.heading}>
          <TableHead>
            <TableRow>
              <TableCell>{t.fullName}</TableCell>
              <TableCell>{t.email}</TableCell>
              <TableCell>{t.role}</TableCell>
              <TableCell>{t.status}</TableCell>
              <TableCell>{t.lastLogin}</TableCell>
              <TableCell align="right">{texts.common.actions}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.data?.items.map((member) => (
              <UserRow key={member.id} member={member} isSelf={member.id === currentUserId} />
            ))}
            {users.data && users.data.items.length === 0 && (
              <TableEmptyRow colSpan={6}>{t.empty}</TableEmptyRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination count={users.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
      <InviteUserDialog open={inviteOpen} onClose={() => setInviteOpen(false)} />
    </Paper>
  );
}
