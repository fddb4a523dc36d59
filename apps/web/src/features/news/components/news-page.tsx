import DoneAllIcon from '@mui/icons-material/DoneAll';
import NewspaperOutlinedIcon from '@mui/icons-material/NewspaperOutlined';
import PostAddOutlinedIcon from '@mui/icons-material/PostAddOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import type { NewsItem } from '@pledgewatch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/ui/empty-state';
import { Page } from '@/components/ui/page';
import { texts } from '@/features/news/texts';
import { getErrorMessage } from '@/lib/api-client';
import { prefetchWhenSignedIn, useUser } from '@/lib/auth';
import { type NewsListQuery, newsQueryOptions, useNews } from '../api/get-news';
import { useUnreadNewsCount } from '../api/get-unread-news-count';
import { useMarkNewsRead } from '../api/mark-news-read';
import { DeleteNewsDialog } from './delete-news-dialog';
import { NewsCard } from './news-card';
import { NewsEditorDialog } from './news-editor-dialog';

const t = texts.news;
const PAGE_SIZE = 10;

const queryFrom = (params: URLSearchParams): NewsListQuery => {
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return { page: Number.isFinite(page) && page > 0 ? page : 1, pageSize: PAGE_SIZE };
};

export const clientLoader =
  (queryClient: QueryClient) =>
  async ({ request }: { request: Request }) => {
    const query = queryFrom(new URL(request.url).searchParams);
    prefetchWhenSignedIn(queryClient, () => queryClient.prefetchQuery(newsQueryOptions(query)));
    return null;
  };

/** Product news, newest first; what a user sees here counts as read. Staff also write them here. */
export default function NewsPage() {
  const [params, setParams] = useSearchParams();
  const query = queryFrom(params);
  const news = useNews(query);
  const unreadCount = useUnreadNewsCount();
  const canManage = useUser()?.isStaff ?? false;
  const markRead = useMarkNewsRead();
  const [editor, setEditor] = useState<{ open: boolean; news: NewsItem | null }>({ open: false, news: null });
  const [deleting, setDeleting] = useState<NewsItem | null>(null);
  // Items that were unread when shown stay highlighted for this visit after they are marked read.
  const [seenUnread, setSeenUnread] = useState<ReadonlySet<string>>(() => new Set());
  const requested = useRef(new Set<string>());

  const items = news.isPlaceholderData ? undefined : news.data?.items;
  const { mutate: mark } = markRead;
  useEffect(() => {
    const ids = (items ?? [])
      .filter((item) => !item.read && !requested.current.has(item.id))
      .map((item) => item.id);
    if (ids.length === 0) {
      return;
    }
    for (const id of ids) {
      requested.current.add(id);
    }
    setSeenUnread((previous) => new Set([...previous, ...ids]));
    mark({ ids });
  }, [items, mark]);

  const pageCount = Math.max(1, Math.ceil((news.data?.total ?? 0) / PAGE_SIZE));

  return (
    <Page
      title={t.title}
      actions={
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {unreadCount > 0 && (
            <Button
              variant="outlined"
              startIcon={<DoneAllIcon />}
              loading={markRead.isPending && markRead.variables?.all === true}
              onClick={() => mark({ all: true })}
            >
              {t.markAllRead}
            </Button>
          )}
          {canManage && (
            <Button
              variant="contained"
              startIcon={<PostAddOutlinedIcon />}
              onClick={() => setEditor({ open: true, news: null })}
            >
              {t.create}
            </Button>
          )}
        </Stack>
      }
    >
      {news.isFetching && news.data && <LinearProgress sx={{ height: 2, mb: 1 }} />}
      {news.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {getErrorMessage(news.error)}
        </Alert>
      )}
      {!news.data && news.isPending && (
        <CircularProgress
          aria-label={texts.common.loading}
          size={28}
          sx={{ display: 'block', mx: 'auto', my: 4 }}
        />
      )}
      {news.data && news.data.items.length === 0 && (
        <EmptyState
          description={t.empty}
          icon={<NewspaperOutlinedIcon sx={{ fontSize: 48, opacity: 0.6 }} />}
        />
      )}
      <Stack spacing={2} component="section" aria-label={t.title}>
        {news.data?.items.map((item) => (
          <NewsCard
            key={item.id}
            news={item}
            highlighted={!item.read || seenUnread.has(item.id)}
            canManage={canManage}
            onEdit={(selected) => setEditor({ open: true, news: selected })}
            onDelete={setDeleting}
          />
        ))}
      </Stack>
      {pageCount > 1 && (
        <Stack sx={{ mt: 3, alignItems: 'center' }}>
          <Pagination
            count={pageCount}
            page={Math.min(query.page, pageCount)}
            color="primary"
            aria-label={t.pagination}
            onChange={(_, page) => {
              setParams(page > 1 ? { page: String(page) } : {});
              window.scrollTo({ top: 0 });
            }}
          />
        </Stack>
      )}
      <NewsEditorDialog
        open={editor.open}
        news={editor.news}
        onClose={() => setEditor((current) => ({ ...current, open: false }))}
      />
      <DeleteNewsDialog news={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
