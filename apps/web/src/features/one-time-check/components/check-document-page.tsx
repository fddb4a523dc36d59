import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { texts } from '@/features/one-time-check/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useCheckDocument } from '../api/get-check-document';
import { CheckDocumentSheet } from './check-document-sheet';
import { PdfDownloadButton } from './pdf-download-button';
import { PrintStyles } from './print-styles';

const t = texts.oneTimeCheck.document;

export default function CheckDocumentPage() {
  const { id = '' } = useParams();
  const document = useCheckDocument(id);
  const data = document.data;

  return (
    <Box>
      <title>{`${data ? t.pageTitle(data.number) : t.pageTitle('')}${texts.app.titleSuffix}`}</title>
      <PrintStyles />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        data-print="hide"
        sx={{ mb: 2, justifyContent: 'space-between', maxWidth: '210mm', mx: 'auto' }}
      >
        <Button
          startIcon={<ArrowBackIcon />}
          component={Link}
          to={`${paths.oneTimeCheckResults.getHref()}?${new URLSearchParams({ id })}`}
        >
          {t.backToResults}
        </Button>
        {data && (
          <Stack direction="row" spacing={1}>
            <Button variant="contained" startIcon={<PrintOutlinedIcon />} onClick={() => window.print()}>
              {t.print}
            </Button>
            <PdfDownloadButton id={data.id} number={data.number} />
          </Stack>
        )}
      </Stack>
      {document.isPending && <CircularProgress aria-label={texts.common.loading} />}
      {document.isError && <Alert severity="error">{getErrorMessage(document.error)}</Alert>}
      {data && <CheckDocumentSheet document={data} />}
    </Box>
  );
}
