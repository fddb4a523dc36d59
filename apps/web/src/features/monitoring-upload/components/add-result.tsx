import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/config/paths';
import { texts } from '@/features/monitoring-upload/texts';
import type { AddOutcome, OutcomeRow } from '../utils/add-outcome';

const t = texts.monitoringUpload.result;

const itemHref = (itemId: string, kind: 'vin' | 'document') =>
  `${paths.monitoringItems.getHref()}?${new URLSearchParams({ ...(kind === 'document' ? { entity: kind } : {}), item: itemId, status: 'all' })}`;

/** The answer of a hand entry: what went on monitoring, what already was, and what was refused and why. */
export function AddResult({
  outcome,
  showRowNumbers,
  kindOf,
}: {
  outcome: AddOutcome;
  showRowNumbers: boolean;
  /** Which portfolio tab an item of this row lives on (for the «open» links). */
  kindOf: (row: OutcomeRow) => 'vin' | 'document';
}) {
  const accepted = outcome.added.length + outcome.restored.length;
  return (
    <Stack spacing={2} role="status" aria-live="polite" data-testid="add-result">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Chip color="success" variant="outlined" label={t.added(outcome.added.length)} />
        {outcome.restored.length > 0 && (
          <Chip color="success" variant="outlined" label={t.restored(outcome.restored.length)} />
        )}
        <Chip color="info" variant="outlined" label={t.duplicates(outcome.duplicates.length)} />
        <Chip
          color={outcome.rejected.length > 0 ? 'error' : 'default'}
          variant="outlined"
          label={t.rejected(outcome.rejected.length)}
        />
      </Stack>
      {accepted > 0 && outcome.rejected.length === 0 && (
        <Alert icon={<CheckCircleOutlineIcon />} severity="success">
          {t.allAccepted(accepted)}{' '}
          <Link component={RouterLink} to={paths.monitoringItems.getHref()}>
            {t.toPortfolio}
          </Link>
        </Alert>
      )}
      {outcome.rejected.length > 0 && <Alert severity="error">{t.fixRejected}</Alert>}
      <ProblemTable
        title={t.rejectedTitle}
        rows={outcome.rejected}
        showRowNumbers={showRowNumbers}
        testId="rejected-rows"
      />
      <ProblemTable
        title={t.duplicatesTitle}
        rows={outcome.duplicates}
        showRowNumbers={showRowNumbers}
        link={(row) =>
          row.itemId ? (
            <Link component={RouterLink} to={itemHref(row.itemId, kindOf(row))}>
              {t.openItem}
            </Link>
          ) : null
        }
        testId="duplicate-rows"
      />
      <ProblemTable
        title={t.warningsTitle}
        rows={outcome.warnings}
        showRowNumbers={showRowNumbers}
        testId="warning-rows"
      />
    </Stack>
  );
}

function ProblemTable({
  title,
  rows,
  showRowNumbers,
  link,
  testId,
}: {
  title: string;
  rows: OutcomeRow[];
  showRowNumbers: boolean;
  link?: (row: OutcomeRow) => React.ReactNode;
  testId: string;
}) {
  if (rows.length === 0) {
    return null;
  }
  return (
    <Box data-testid={testId}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      <TableContainer>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              {showRowNumbers && <TableCell sx={{ width: 72 }}>{t.row}</TableCell>}
              <TableCell>{t.identifier}</TableCell>
              <TableCell>{t.reason}</TableCell>
              {link && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={`${row.rowNumber}-${row.message}`}>
                {showRowNumbers && <TableCell>{row.rowNumber}</TableCell>}
                <TableCell
                  sx={{
                    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                    overflowWrap: 'anywhere',
                  }}
                >
                  {row.identifier || texts.common.dash}
                </TableCell>
                <TableCell>{row.message}</TableCell>
                {link && <TableCell align="right">{link(row)}</TableCell>}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
