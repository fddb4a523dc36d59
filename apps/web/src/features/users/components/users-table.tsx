import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/features/users/texts';
import { usePagination } from '@/lib/pagination';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUsers } from '../api/get-users';
import { InviteUserDialog } from './invite-user-dialog';
import { userColumns } from './user-columns';

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
            sx={{ minWidth: { sm: 260 } }}
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
      <ResponsiveTable
        rows={users.data?.items ?? []}
        columns={userColumns(currentUserId)}
        getRowId={(member) => member.id}
        ariaLabel={t.heading}
        rowOptions={() => ({ testId: 'user-row' })}
        showEmpty={Boolean(users.data)}
        empty={t.empty}
      />
      <ServerPagination count={users.data?.total} page={page} pageSize={pageSize} onChange={onChange} />
      <InviteUserDialog open={inviteOpen} onClose={() => setInviteOpen(false)} />
    </Paper>
  );
}
