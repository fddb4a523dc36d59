import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { NewsItem } from '@pledgewatch/contract';
import { texts } from '@/features/news/texts';
import { formatNewsDate, formatNewsDateTime } from './news-date';
import { NewsMarkdown } from './news-markdown';

const t = texts.news;

type NewsCardProps = {
  news: NewsItem;
  /** Unread when the page showed it, even if it has been marked read since. */
  highlighted: boolean;
  canManage: boolean;
  onEdit: (news: NewsItem) => void;
  onDelete: (news: NewsItem) => void;
};

export function NewsCard({ news, highlighted, canManage, onEdit, onDelete }: NewsCardProps) {
  const titleId = `news-title-${news.id}`;
  return (
    <Paper
      component="article"
      variant="outlined"
      aria-labelledby={titleId}
      data-testid="news-item"
      data-unread={highlighted ? 'true' : undefined}
      sx={{
        p: { xs: 2, md: 3 },
        borderLeftWidth: 4,
        borderLeftColor: highlighted ? 'primary.main' : news.draft ? 'warning.main' : 'divider',
        bgcolor: highlighted ? 'action.hover' : 'background.paper',
        transition: 'background-color 600ms ease',
      }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
        <Stack spacing={0.5} sx={{ minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary">
              {news.publishedAt ? (
                <time dateTime={news.publishedAt} title={formatNewsDateTime(news.publishedAt)}>
                  {formatNewsDate(news.publishedAt)}
                </time>
              ) : (
                t.notPublished
              )}
            </Typography>
            {highlighted && <Chip size="small" color="primary" label={t.unread} />}
            {news.pinned && (
              <Chip size="small" variant="outlined" icon={<PushPinOutlinedIcon />} label={t.pinnedChip} />
            )}
            {news.draft && <Chip size="small" color="warning" variant="outlined" label={t.draftChip} />}
          </Stack>
          <Typography id={titleId} variant="h6" component="h2" sx={{ fontWeight: highlighted ? 700 : 600 }}>
            {news.title}
          </Typography>
        </Stack>
        {canManage && (
          <Stack direction="row" spacing={0.5} sx={{ flexShrink: 0 }}>
            <Tooltip title={t.edit}>
              <IconButton aria-label={`${t.edit} ${t.itemActions(news.title)}`} onClick={() => onEdit(news)}>
                <EditOutlinedIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={t.delete}>
              <IconButton
                aria-label={`${t.delete} ${t.itemActions(news.title)}`}
                color="error"
                onClick={() => onDelete(news)}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </Tooltip>
          </Stack>
        )}
      </Stack>
      <Stack sx={{ mt: 1.5 }}>
        <NewsMarkdown source={news.body} />
      </Stack>
      {canManage && news.authorName && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
          {t.author(news.authorName)}
        </Typography>
      )}
    </Paper>
  );
}
