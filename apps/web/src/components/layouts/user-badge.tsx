import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { ROLE_LABELS, type User } from '@pledgewatch/contract';

function initials(name: string, email: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 0 ? parts.slice(0, 2).map((part) => part[0]) : [email[0]];
  return letters.join('').toUpperCase();
}

/** Who is signed in, with the role, in the app bar. */
export function UserBadge({ user }: { user: User }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }} data-testid="current-user">
      <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'primary.dark' }}>
        {initials(user.fullName, user.email)}
      </Avatar>
      <Box sx={{ display: { xs: 'none', sm: 'block' }, minWidth: 0, lineHeight: 1.2 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
          {user.fullName || user.email}
        </Typography>
        <Typography variant="caption" noWrap sx={{ opacity: 0.8, display: 'block' }}>
          {ROLE_LABELS[user.role]}
          {user.fullName ? ` · ${user.email}` : ''}
        </Typography>
      </Box>
    </Box>
  );
}
