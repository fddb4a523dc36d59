import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { OneTimeCheckDocument } from '@pledgewatch/contract';
import { DefinitionList } from '@/components/ui/definition-list';
import { texts } from '@/features/one-time-check/texts';

const t = texts.oneTimeCheck.document;

const STATUS_COLORS = { ok: 'success.main', failed: 'error.main', skipped: 'text.secondary' } as const;

/**
 * On a phone the sources table becomes one block per source (name and status, then the answer),
 * so the document fits 390 px without scrolling sideways; paper keeps the table.
 */
const SOURCES_TABLE = {
  '& th': { fontWeight: 700 },
  overflowWrap: 'anywhere',
  '@media screen and (max-width: 599.95px)': {
    '& thead': { display: 'none' },
    '& tbody, & tr': { display: 'block' },
    '& tr': { py: 1, borderBottom: '1px solid #d0d0d0' },
    '& td': { display: 'inline-block', border: 'none', width: 'auto !important', py: 0.25 },
    '& td:last-of-type': { display: 'block' },
  },
} as const;

/** The printable check document: an A4 sheet on screen, the bare page on paper. */
export function CheckDocumentSheet({ document }: { document: OneTimeCheckDocument }) {
  return (
    <Paper
      elevation={2}
      data-testid="check-document"
      sx={{
        width: '100%',
        maxWidth: '210mm',
        minHeight: { md: '297mm' },
        mx: 'auto',
        px: { xs: 2, sm: '16mm' },
        py: { xs: 2, sm: '14mm' },
        bgcolor: '#fff',
        color: '#111',
        fontSize: 14,
        '& .MuiTableCell-root': {
          color: '#111',
          borderColor: '#d0d0d0',
          px: 1,
          py: 0.75,
          verticalAlign: 'top',
        },
        '@media print': { boxShadow: 'none', maxWidth: 'none', minHeight: 0, p: 0 },
      }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" sx={{ color: '#111' }}>
          {document.organisation}
        </Typography>
        <Typography variant="subtitle2" sx={{ color: '#111' }}>
          {t.number(document.number)}
        </Typography>
      </Box>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mt: 3, mb: 0.5 }}>
        {document.title}
      </Typography>
      <Typography variant="body2" sx={{ color: '#444', mb: 2 }}>
        {t.checkedLine(document.checkedAtMoscow, document.checkedBy)}
      </Typography>
      {document.demo && (
        <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
          {t.demoNotice}
        </Alert>
      )}

      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mt: 2 }}>
        {t.subjectHeading}
      </Typography>
      <Divider sx={{ mb: 1, borderColor: '#999' }} />
      <DefinitionList
        lines={[
          { label: t.kind, value: document.subject.kindLabel },
          { label: t.identifier, value: document.subject.identifierDisplay },
          ...document.subject.decoding,
        ]}
      />
      {document.subject.warnings.map((warning) => (
        <Typography key={warning} variant="body2" sx={{ mt: 1, color: '#8a5a00' }}>
          {warning}
        </Typography>
      ))}

      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mt: 3 }}>
        {t.resultHeading}
      </Typography>
      <Divider sx={{ mb: 1, borderColor: '#999' }} />
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {document.statusLabel}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {document.summary}
      </Typography>

      <Box sx={{ overflowX: 'auto', '@media print': { overflow: 'visible' } }}>
        <Table size="small" aria-label={t.sourcesHeading} sx={SOURCES_TABLE}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: '32%' }}>{t.source}</TableCell>
              <TableCell sx={{ width: '22%' }}>{t.status}</TableCell>
              <TableCell>{t.answer}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {document.sources.map((source) => (
              <TableRow
                key={source.type}
                data-testid={`document-source-${source.type}`}
                sx={{ breakInside: 'avoid' }}
              >
                <TableCell sx={{ fontWeight: 600 }}>
                  {source.name}
                  <Typography variant="caption" component="div" color="text.secondary">
                    {source.answeredBy}
                  </Typography>
                </TableCell>
                <TableCell sx={{ '&&': { color: STATUS_COLORS[source.status] }, fontWeight: 600 }}>
                  {source.statusLabel}
                </TableCell>
                <TableCell>
                  {source.answer}
                  {source.findings.map((finding) => (
                    <Box key={finding.key} sx={{ mt: 1, pl: 1, borderLeft: '2px solid #bbb' }}>
                      <Typography variant="caption" component="p" sx={{ fontWeight: 700 }}>
                        {texts.oneTimeCheck.results.findingKey(finding.key)}
                      </Typography>
                      {finding.lines.map((line) => (
                        <Typography key={line.label} variant="caption" component="p">
                          {line.label}: {line.value}
                        </Typography>
                      ))}
                    </Box>
                  ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>

      <Box sx={{ mt: 4, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
        <Box>
          <Typography variant="caption" component="p" sx={{ color: '#555' }}>
            {t.checkedBy}
          </Typography>
          <Typography variant="body2">{document.checkedBy}</Typography>
        </Box>
        <Box>
          <Typography variant="caption" component="p" sx={{ color: '#555' }}>
            {t.checkedAt}
          </Typography>
          <Typography variant="body2">{document.checkedAtMoscow}</Typography>
        </Box>
      </Box>
      <Typography variant="caption" component="p" sx={{ mt: 3, color: '#555' }}>
        {document.disclaimer}
      </Typography>
      <Typography variant="caption" component="p" sx={{ mt: 1, color: '#555' }}>
        {t.footer(document.number)}
      </Typography>
    </Paper>
  );
}
