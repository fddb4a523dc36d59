import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
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
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { texts } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useUsers } from '../api/get-users';
import { InviteUserDialog } from './invite-user-dialog';
import { UserRow } from './user-row';

const t = texts.settings.users;

/** Organisation members, paged and searched on the server. */
export function UsersTable({ currentUserId }: { currentUserId: string }) {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [search, setSearch] = useState('');
  const [inviteOpen, setInviteOpen] = useState(false);
  const debouncedSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const users = useUsers({ page: page + 1, pageSize, search: debouncedSearch || undefined });

  return (
    <Paper variant="outlined">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ p: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h6" component="h2">
          {t.heading}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            size="small"
            fullWidth={false}
            type="search"
            label={t.search}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(0);
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
      </Stack>
      {users.isFetching && <LinearProgress sx={{ height: 2 }} />}
      {users.isError && (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {getErrorMessage(users.error)}
        </Alert>
      )}
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
              <TableRow>
                <TableCell colSpan={6} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                  {t.empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={users.data?.total ?? 0}
        page={page}
        onPageChange={(_, next) => setPage(next)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={PAGE_SIZE_OPTIONS}
        onRowsPerPageChange={(event) => {
          setPageSize(Number(event.target.value));
          setPage(0);
        }}
      />
      <InviteUserDialog open={inviteOpen} onClose={() => setInviteOpen(false)} />
    </Paper>
  );
}
