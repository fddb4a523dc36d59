import DoneAllIcon from '@mui/icons-material/DoneAll';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { texts } from '@/features/events/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { eventsQueryOptions } from '../api/get-events';
import { useMarkEventsRead } from '../api/mark-events-read';
import { useMarkEventsReadByFilter } from '../api/mark-events-read-by-filter';
import { eventsExportUrl, eventsFilterOf } from './events-export';
import { type EventsView, toEventsQuery } from './use-events-view';

const t = texts.events.bulk;

/**
 * Work on many events at once: the chosen ones read, everything the filter matches read (after a
 * confirmation with the count, done by the server from the filter), and the filtered list as a file.
 */
export function EventsBulkActions({
  view,
  selected,
  canWrite,
  onDone,
}: {
  view: EventsView;
  selected: string[];
  canWrite: boolean;
  onDone: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const filter = eventsFilterOf(toEventsQuery(view));
  // The count the confirmation gives: the filter's unread events (one row fetched, the total read).
  const unread = useQuery({
    ...eventsQueryOptions({ ...toEventsQuery(view), read: false, page: 1, pageSize: 1 }),
    enabled: confirming && view.read !== 'read',
  });
  const unreadCount = view.read === 'read' ? 0 : unread.data?.total;
  const onError = (error: Error) => toast.error(getErrorMessage(error));
  const mark = useMarkEventsRead({ onError });
  const markAll = useMarkEventsReadByFilter({ onError });

  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', px: 2, pb: 1.5 }}>
      {canWrite && (
        <>
          <Button
            variant="outlined"
            size="small"
            startIcon={<PlaylistAddCheckIcon />}
            disabled={selected.length === 0}
            loading={mark.isPending}
            onClick={() =>
              mark.mutate(
                { ids: selected, read: true },
                {
                  onSuccess: (result) => {
                    toast.success(t.markedSelected(result.updated));
                    onDone();
                  },
                },
              )
            }
          >
            {t.markSelected(selected.length)}
          </Button>
          <Button
            variant="outlined"
            size="small"
            startIcon={<DoneAllIcon />}
            onClick={() => setConfirming(true)}
          >
            {t.markFiltered}
          </Button>
        </>
      )}
      {(['xlsx', 'csv'] as const).map((format) => (
        <Button
          key={format}
          size="small"
          startIcon={<FileDownloadOutlinedIcon />}
          href={eventsExportUrl(view, format)}
          download
          aria-label={t.downloadAs(format.toUpperCase())}
        >
          {format.toUpperCase()}
        </Button>
      ))}
      <ConfirmDialog
        open={confirming}
        title={t.confirmTitle}
        message={
          unreadCount === undefined
            ? t.counting
            : unreadCount === 0
              ? t.nothingUnread
              : t.confirmMessage(formatNumber(unreadCount))
        }
        confirmLabel={t.confirm}
        pending={markAll.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          if (!unreadCount) {
            setConfirming(false);
            return;
          }
          markAll.mutate(
            { filter, read: true },
            {
              onSuccess: (result) => {
                toast.success(t.markedFiltered(formatNumber(result.updated)));
                setConfirming(false);
                onDone();
              },
            },
          );
        }}
      />
    </Stack>
  );
}
