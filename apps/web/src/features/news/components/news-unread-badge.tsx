import Badge from '@mui/material/Badge';
import type { ReactNode } from 'react';
import { texts } from '@/features/news/texts';
import { useUnreadNewsCount } from '../api/get-unread-news-count';

/** Wraps the «Новости» navigation icon with the number of unread news. */
export function NewsUnreadBadge({ children }: { children: ReactNode }) {
  const count = useUnreadNewsCount();
  return (
    <Badge
      color="error"
      badgeContent={count}
      max={99}
      slotProps={{
        badge: {
          'aria-label': texts.news.unreadBadge(count),
          role: 'status',
          ...{ 'data-testid': 'news-unread-badge' },
        },
      }}
    >
      {children}
    </Badge>
  );
}
