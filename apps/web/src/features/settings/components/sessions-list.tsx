import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Session } from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { texts } from '@/features/settings/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDeleteOtherSessions } from '../api/delete-other-sessions';
import { useDeleteSession } from '../api/delete-session';
import { SectionCard } from './section-card';

const t = texts.settings.sessions;

export function SessionsList({ sessions }: { sessions: Session[] }) {
  // Ending a session cannot be undone: both buttons ask first.
  const [ending, setEnding] = useState<Session | 'others' | null>(null);
  const endOne = useDeleteSession({
    onSuccess: () => {
      setEnding(null);
      toast.success(t.ended);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const endOthers = useDeleteOtherSessions({
    onSuccess: () => {
      setEnding(null);
      toast.success(t.endedOthers);
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const hasOthers = sessions.some((session) => !session.current);

  return (
    <SectionCard title={t.heading}>
      <Stack spacing={2}>
        <ResponsiveTable
          rows={sessions}
          columns={[
            {
              id: 'device',
              header: t.device,
              card: 'title',
              cellSx: { maxWidth: 360 },
              cell: (session) => (
                <>
                  <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                    {session.userAgent || t.unknownDevice}
                  </Typography>
                  {session.current && (
                    <Chip size="small" color="primary" label={t.current} sx={{ mt: 0.5 }} />
                  )}
                </>
              ),
            },
            { id: 'ip', header: t.ip, cell: (session) => session.ip ?? texts.common.dash },
            { id: 'createdAt', header: t.createdAt, cell: (session) => formatDateTime(session.createdAt) },
            { id: 'lastUsedAt', header: t.lastUsedAt, cell: (session) => formatDateTime(session.lastUsedAt) },
            {
              id: 'actions',
              header: texts.common.actions,
              align: 'right',
              card: 'actions',
              cell: (session) =>
                !session.current && (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setEnding(session)}
                    loading={endOne.isPending && endOne.variables === session.id}
                  >
                    {t.end}
                  </Button>
                ),
            },
          ]}
          getRowId={(session) => session.id}
          ariaLabel={t.heading}
          rowOptions={(session) => ({ testId: 'session-row', selected: session.current })}
        />
        {!hasOthers && <Typography color="text.secondary">{t.empty}</Typography>}
        <Button
          variant="outlined"
          color="error"
          disabled={!hasOthers}
          loading={endOthers.isPending}
          onClick={() => setEnding('others')}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t.endOthers}
        </Button>
      </Stack>
      <ConfirmDialog
        open={ending !== null}
        title={ending === 'others' ? t.confirmOthersTitle : t.confirmEndTitle}
        message={ending === 'others' ? t.confirmOthers : t.confirmEnd(ending?.userAgent || t.unknownDevice)}
        confirmLabel={ending === 'others' ? t.endOthers : t.end}
        danger
        pending={endOne.isPending || endOthers.isPending}
        onConfirm={() =>
          ending === 'others' ? endOthers.mutate(undefined) : ending && endOne.mutate(ending.id)
        }
        onClose={() => setEnding(null)}
      />
    </SectionCard>
  );
}
