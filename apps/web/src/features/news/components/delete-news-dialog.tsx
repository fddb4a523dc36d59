import type { NewsItem } from '@pledgewatch/contract';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { texts } from '@/features/news/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteNews } from '../api/delete-news';

const t = texts.news;

/** Deleting a news item cannot be undone: the shared confirmation asks first. */
export function DeleteNewsDialog({ news, onClose }: { news: NewsItem | null; onClose: () => void }) {
  const remove = useDeleteNews({
    onSuccess: () => {
      toast.success(t.deleted);
      onClose();
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });

  return (
    <ConfirmDialog
      open={news !== null}
      title={t.deleteTitle}
      message={news ? t.deleteText(news.title) : ''}
      confirmLabel={t.delete}
      danger
      pending={remove.isPending}
      onConfirm={() => news && remove.mutate(news.id)}
      onClose={onClose}
    />
  );
}
