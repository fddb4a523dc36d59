import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import type { OutboxMail } from '@pledgewatch/contract';
import type { ResponsiveColumn } from '@/components/ui/responsive-table';
import { texts } from '@/features/outbox/texts';
import { formatDateTime } from '@/lib/format';

const t = texts.outbox;
const STATUS_COLORS = { queued: 'default', sent: 'success', stored: 'info', failed: 'error' } as const;

/** The mails' columns; the first one unfolds a mail's plain-text body (where demo users find reset links). */
export function outboxColumns({
  isOpen,
  onToggle,
}: {
  isOpen: (mail: OutboxMail) => boolean;
  onToggle: (mail: OutboxMail) => void;
}): ResponsiveColumn<OutboxMail>[] {
  return [
    {
      id: 'expand',
      header: '',
      padding: 'checkbox',
      card: 'actions',
      cell: (mail) => (
        <IconButton
          size="small"
          aria-label={`${isOpen(mail) ? texts.common.collapse : texts.common.expand}: ${mail.subject}`}
          aria-expanded={isOpen(mail)}
          onClick={() => onToggle(mail)}
        >
          {isOpen(mail) ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
        </IconButton>
      ),
    },
    { id: 'to', header: t.to, cell: (mail) => mail.to },
    { id: 'subject', header: t.subject, card: 'title', cell: (mail) => mail.subject },
    {
      id: 'status',
      header: t.status,
      cell: (mail) => (
        <Chip size="small" color={STATUS_COLORS[mail.status]} label={t.statuses[mail.status]} />
      ),
    },
    {
      id: 'createdAt',
      header: t.createdAt,
      card: 'secondary',
      cell: (mail) => formatDateTime(mail.createdAt),
    },
  ];
}

/** A mail unfolded: its plain-text body and the last sending error. */
export function OutboxBody({ mail }: { mail: OutboxMail }) {
  return (
    <Box sx={{ py: 2 }}>
      <Typography variant="subtitle2" gutterBottom>
        {t.body}
      </Typography>
      <Box
        component="pre"
        data-testid="outbox-body"
        sx={{
          m: 0,
          p: 2,
          bgcolor: 'action.hover',
          borderRadius: 1,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          fontFamily: 'monospace',
          fontSize: 13,
        }}
      >
        {mail.text}
      </Box>
      {mail.lastError && (
        <Typography variant="body2" color="error" sx={{ mt: 1 }}>
          {t.lastError}: {mail.lastError}
        </Typography>
      )}
    </Box>
  );
}
