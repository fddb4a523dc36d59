import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { OutboxMail } from '@pledgewatch/contract';
import { useState } from 'react';
import { texts } from '@/features/outbox/texts';
import { formatDateTime } from '@/lib/format';

const t = texts.outbox;
const STATUS_COLORS = { queued: 'default', sent: 'success', stored: 'info', failed: 'error' } as const;

/** One mail; the row expands to the plain-text body (where demo users find their reset links). */
export function OutboxRow({ mail }: { mail: OutboxMail }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <TableRow
        hover
        data-testid="outbox-row"
        sx={{ '& > td': { borderBottom: open ? 'unset' : undefined } }}
      >
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={`${open ? texts.common.collapse : texts.common.expand}: ${mail.subject}`}
            aria-expanded={open}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
          </IconButton>
        </TableCell>
        <TableCell>{mail.to}</TableCell>
        <TableCell>{mail.subject}</TableCell>
        <TableCell>
          <Chip size="small" color={STATUS_COLORS[mail.status]} label={t.statuses[mail.status]} />
        </TableCell>
        <TableCell>{formatDateTime(mail.createdAt)}</TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={5} sx={{ py: 0 }}>
          <Collapse in={open} timeout="auto" unmountOnExit>
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
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}
