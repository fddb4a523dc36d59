import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { NewsItem } from '@pledgewatch/contract';
import { toast } from 'react-toastify';
import { texts } from '@/features/news/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteNews } from '../api/delete-news';

const t = texts.news;

export function DeleteNewsDialog({ news, onClose }: { news: NewsItem | null; onClose: () => void }) {
  const remove = useDeleteNews({
    onSuccess: () => {
      toast.success(t.deleted);
      onClose();
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });

  return (
    <Dialog
      open={news !== null}
      onClose={onClose}
      aria-labelledby="delete-news-title"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="delete-news-title">{t.deleteTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText>{news ? t.deleteText(news.title) : ''}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{texts.common.cancel}</Button>
        <Button
          color="error"
          variant="contained"
          loading={remove.isPending}
          onClick={() => news && remove.mutate(news.id)}
        >
          {t.delete}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
