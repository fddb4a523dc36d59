import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DOCUMENT_TYPE_LABELS, type UploadDetail } from '@pledgewatch/contract';
import { texts } from '@/features/monitoring-upload/texts';

const t = texts.monitoringUpload.preview;
const MONO = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  whiteSpace: 'nowrap',
} as const;
const WIDE = { display: { xs: 'none', md: 'table-cell' } } as const;

/** The first rows that will be added. */
export function AcceptedRowsTable({ upload }: { upload: UploadDetail }) {
  if (upload.preview.length === 0) {
    return null;
  }
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t.acceptedTitle(upload.preview.length, upload.counts.accepted)}
      </Typography>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" aria-label={t.acceptedLabel} data-testid="preview-rows">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 72 }}>{t.row}</TableCell>
              <TableCell>{t.identifier}</TableCell>
              <TableCell>{t.label}</TableCell>
              <TableCell sx={WIDE}>{t.contractNumber}</TableCell>
              <TableCell sx={WIDE}>{t.pledgorName}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {upload.preview.map((row) => (
              <TableRow key={row.rowNumber}>
                <TableCell>{row.rowNumber}</TableCell>
                <TableCell>
                  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                    <Box component="span" sx={MONO}>
                      {row.displayIdentifier}
                    </Box>
                    {row.warning && (
                      <Tooltip title={row.warning}>
                        <WarningAmberRoundedIcon
                          color="warning"
                          fontSize="small"
                          aria-label={row.warning}
                          role="img"
                        />
                      </Tooltip>
                    )}
                  </Box>
                  {row.documentType && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {DOCUMENT_TYPE_LABELS[row.documentType]}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.label ?? texts.common.dash}</TableCell>
                <TableCell sx={{ ...WIDE, overflowWrap: 'anywhere' }}>
                  {row.contractNumber ?? texts.common.dash}
                </TableCell>
                <TableCell sx={{ ...WIDE, overflowWrap: 'anywhere' }}>
                  {row.pledgorName ?? texts.common.dash}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

/** The first refused rows with their number in the file and the reason; the rest are in the error file. */
export function RejectedRowsTable({ upload }: { upload: UploadDetail }) {
  if (upload.errors.length === 0) {
    return null;
  }
  const columnTitle = (field: string | null) =>
    field ? (upload.columns.find((column) => column.field === field)?.title ?? field) : t.wholeRow;
  const identifierOf = (values: Record<string, string>) =>
    values.vin ?? values.number ?? Object.values(values).find((value) => value.trim() !== '') ?? '';
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t.rejectedTitle(upload.errors.length, upload.counts.rejected)}
      </Typography>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" aria-label={t.rejectedLabel} data-testid="rejected-file-rows">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 72 }}>{t.row}</TableCell>
              <TableCell>{t.value}</TableCell>
              <TableCell sx={WIDE}>{t.column}</TableCell>
              <TableCell>{t.reason}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {upload.errors.map((row) => (
              <TableRow key={`${row.rowNumber}-${row.field}`}>
                <TableCell>{row.rowNumber}</TableCell>
                <TableCell sx={{ ...MONO, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
                  {identifierOf(row.values) || texts.common.dash}
                </TableCell>
                <TableCell sx={WIDE}>{columnTitle(row.field)}</TableCell>
                <TableCell>{row.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
