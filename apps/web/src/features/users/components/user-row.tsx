import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { type Member, type MemberStatus, ROLE_LABELS, ROLES, type Role } from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { texts } from '@/features/users/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useUpdateUser } from '../api/update-user';

const t = texts.users;

const STATUS_COLORS: Record<MemberStatus, 'success' | 'info' | 'default'> = {
  invited: 'info',
  active: 'success',
  disabled: 'default',
};

/** One member: role can be changed inline; an admin cannot demote or disable themselves. */
export function UserRow({ member, isSelf }: { member: Member; isSelf: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateUser({
    onSuccess: () => {
      setConfirming(false);
      toast.success(t.updated);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const name = member.fullName || member.email;

  return (
    <TableRow data-testid="user-row" hover>
      <TableCell>
        {name}
        {isSelf && ` (${t.you})`}
      </TableCell>
      <TableCell>{member.email}</TableCell>
      <TableCell sx={{ minWidth: 180 }}>
        <TextField
          select
          size="small"
          value={member.role}
          disabled={isSelf || update.isPending}
          slotProps={{ htmlInput: { 'aria-label': t.changeRole(name) } }}
          onChange={(event) => update.mutate({ id: member.id, data: { role: event.target.value as Role } })}
        >
          {ROLES.map((role) => (
            <MenuItem key={role} value={role}>
              {ROLE_LABELS[role]}
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          color={STATUS_COLORS[member.status]}
          label={t.statuses[member.status]}
          data-status={member.status}
        />
      </TableCell>
      <TableCell>{formatDateTime(member.lastLoginAt)}</TableCell>
      <TableCell align="right">
        <Button
          size="small"
          color={member.active ? 'error' : 'primary'}
          disabled={isSelf}
          loading={update.isPending && update.variables?.data.active !== undefined}
          onClick={() =>
            // Disabling ends the member's sessions at once: it asks first; enabling does not.
            member.active ? setConfirming(true) : update.mutate({ id: member.id, data: { active: true } })
          }
        >
          {member.active ? t.deactivate : t.activate}
        </Button>
        <ConfirmDialog
          open={confirming}
          title={t.confirmDeactivateTitle}
          message={t.confirmDeactivate(name)}
          confirmLabel={t.deactivate}
          danger
          pending={update.isPending}
          onConfirm={() => update.mutate({ id: member.id, data: { active: false } })}
          onClose={() => setConfirming(false)}
        />
      </TableCell>
    </TableRow>
  );
}
