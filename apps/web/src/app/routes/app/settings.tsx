import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { User } from '@pledgewatch/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Page } from '@/components/ui/page';
import { ApiKeysPanel } from '@/features/api-keys/components/api-keys-panel';
import { AuditLogTable } from '@/features/audit-log/components/audit-log-table';
import { OutboxTable } from '@/features/outbox/components/outbox-table';
import { profileQueryOptions, useProfile } from '@/features/settings/api/get-profile';
import { AppearanceSettings } from '@/features/settings/components/appearance-settings';
import { EmailChangeForm } from '@/features/settings/components/email-change-form';
import { PasswordForm } from '@/features/settings/components/password-form';
import { ProfileNameForm } from '@/features/settings/components/profile-name-form';
import { SessionsList } from '@/features/settings/components/sessions-list';
import { texts } from '@/features/settings/texts';
import { UsersTable } from '@/features/users/components/users-table';
import { getErrorMessage } from '@/lib/api-client';
import { prefetchWhenSignedIn, useUser } from '@/lib/auth';

export const clientLoader = (queryClient: QueryClient) => async () => {
  // Start loading the profile with the route code, but let the screen show its own error. Loaders run
  // in parallel with the layout's sign-in check, so wait for the current user first.
  prefetchWhenSignedIn(queryClient, () => queryClient.prefetchQuery(profileQueryOptions()));
  return null;
};

type TabId = 'profile' | 'password' | 'appearance' | 'sessions' | 'users' | 'apiKeys' | 'audit' | 'outbox';

function availableTabs(user: User): TabId[] {
  const tabs: TabId[] = ['profile', 'password', 'appearance', 'sessions'];
  if (user.role === 'admin') {
    tabs.push('users', 'apiKeys', 'audit');
  }
  if (user.isStaff) {
    tabs.push('outbox');
  }
  return tabs;
}

function ProfileTabs({ tab, user }: { tab: TabId; user: User }) {
  const profile = useProfile();
  if (profile.isError) {
    return <Alert severity="error">{getErrorMessage(profile.error)}</Alert>;
  }
  if (!profile.data) {
    return (
      <CircularProgress
        aria-label={texts.common.loading}
        size={28}
        sx={{ display: 'block', mx: 'auto', my: 4 }}
      />
    );
  }
  const { user: profileUser, pendingEmail, sessions } = profile.data;
  if (tab === 'sessions') {
    return <SessionsList sessions={sessions} />;
  }
  return (
    <Stack spacing={3}>
      <ProfileNameForm key={profileUser.fullName} user={profileUser ?? user} />
      <EmailChangeForm user={profileUser ?? user} pendingEmail={pendingEmail} />
    </Stack>
  );
}

function TabContent({ tab, user }: { tab: TabId; user: User }): ReactNode {
  switch (tab) {
    case 'profile':
    case 'sessions':
      return <ProfileTabs tab={tab} user={user} />;
    case 'password':
      return <PasswordForm />;
    case 'appearance':
      return <AppearanceSettings />;
    case 'users':
      return <UsersTable currentUserId={user.id} />;
    case 'apiKeys':
      return <ApiKeysPanel />;
    case 'audit':
      return <AuditLogTable />;
    case 'outbox':
      return <OutboxTable />;
  }
}

/** The tab is in the URL (?tab=) so a tab can be linked to and survives a reload. */
export default function SettingsRoute() {
  const user = useUser();
  const [searchParams, setSearchParams] = useSearchParams();
  if (!user) {
    return null;
  }
  const tabs = availableTabs(user);
  const requested = searchParams.get('tab') as TabId | null;
  const tab = requested && tabs.includes(requested) ? requested : 'profile';

  return (
    <Page title={texts.settings.title}>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_, next: TabId) => setSearchParams({ tab: next })}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {tabs.map((id) => (
            <Tab key={id} value={id} label={texts.settings.tabs[id]} id={`settings-tab-${id}`} />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" aria-labelledby={`settings-tab-${tab}`}>
        <TabContent tab={tab} user={user} />
      </Box>
    </Page>
  );
}
