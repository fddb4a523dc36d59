import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type Member, type MemberStatus, ROLE_LABELS, ROLES, type Role } from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { ResponsiveColumn } from '@/components/ui/responsive-table';
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

function useMemberUpdate(onSaved?: () => void) {
  return useUpdateUser({
    onSuccess: () => {
      onSaved?.();
      toast.success(t.updated);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
}

const nameOf = (member: Member) => member.fullName || member.email;

/** The role, changed inline; an admin cannot demote themselves. */
function RoleSelect({ member, isSelf }: { member: Member; isSelf: boolean }) {
  const update = useMemberUpdate();
  return (
    <TextField
      select
      size="small"
      value={member.role}
      disabled={isSelf || update.isPending}
      slotProps={{ htmlInput: { 'aria-label': t.changeRole(nameOf(member)) } }}
      onChange={(event) => update.mutate({ id: member.id, data: { role: event.target.value as Role } })}
    >
      {ROLES.map((role) => (
        <MenuItem key={role} value={role}>
          {ROLE_LABELS[role]}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Disables or enables a member; never oneself. */
function ActiveToggle({ member, isSelf }: { member: Member; isSelf: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const update = useMemberUpdate(() => setConfirming(false));
  return (
    <>
      <Button
        size="small"
        color={member.active ? 'error' : 'primary'}
        disabled={isSelf}
        loading={update.isPending}
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
        message={t.confirmDeactivate(nameOf(member))}
        confirmLabel={t.deactivate}
        danger
        pending={update.isPending}
        onConfirm={() => update.mutate({ id: member.id, data: { active: false } })}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

/** The members' columns; `currentUserId` marks the admin's own row. */
export function userColumns(currentUserId: string): ResponsiveColumn<Member>[] {
  const isSelf = (member: Member) => member.id === currentUserId;
  return [
    {
      id: 'fullName',
      header: t.fullName,
      card: 'title',
      cell: (member) => `${nameOf(member)}${isSelf(member) ? ` (${t.you})` : ''}`,
    },
    { id: 'email', header: t.email, card: 'secondary', cell: (member) => member.email },
    {
      id: 'role',
      header: t.role,
      cellSx: { minWidth: 180 },
      cell: (member) => <RoleSelect member={member} isSelf={isSelf(member)} />,
    },
    {
      id: 'status',
      header: t.status,
      cell: (member) => (
        <Chip
          size="small"
          color={STATUS_COLORS[member.status]}
          label={t.statuses[member.status]}
          data-status={member.status}
        />
      ),
    },
    { id: 'lastLogin', header: t.lastLogin, cell: (member) => formatDateTime(member.lastLoginAt) },
    {
      id: 'actions',
      header: texts.common.actions,
      align: 'right',
      card: 'actions',
      cell: (member) => <ActiveToggle member={member} isSelf={isSelf(member)} />,
    },
  ];
}
