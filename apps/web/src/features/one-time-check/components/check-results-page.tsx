import AddIcon from '@mui/icons-material/Add';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/ui/empty-state';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { texts } from '@/features/one-time-check/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useOneTimeCheck } from '../api/get-one-time-check';
import { CheckSummary } from './check-summary';
import { PdfDownloadButton } from './pdf-download-button';
import { SourceAnswerCard, sortAnswers } from './source-answer-card';

const t = texts.oneTimeCheck.results;

/** One check's findings by source; the check id stays in the URL so a reload shows the same check. */
export default function CheckResultsPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const check = useOneTimeCheck(id);

  if (!id) {
    return (
      <Page title={t.title}>
        <EmptyState
          description={t.noCheck}
          action={
            <Stack direction="row" spacing={1}>
              <Button variant="contained" component={Link} to={paths.oneTimeCheck.getHref()}>
                {t.newCheck}
              </Button>
              <Button component={Link} to={paths.oneTimeCheckTable.getHref()}>
                {texts.oneTimeCheck.form.history}
              </Button>
            </Stack>
          }
        />
      </Page>
    );
  }

  const data = check.data;
  return (
    <Page
      title={data ? t.titleWithNumber(data.number) : t.title}
      actions={
        data && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <Button
              variant="contained"
              startIcon={<DescriptionOutlinedIcon />}
              component={Link}
              to={paths.oneTimeCheckDocument.getHref({ id: data.id })}
            >
              {t.openDocument}
            </Button>
            <PdfDownloadButton id={data.id} number={data.number} />
            <Button startIcon={<AddIcon />} component={Link} to={paths.oneTimeCheck.getHref()}>
              {t.newCheck}
            </Button>
          </Stack>
        )
      }
    >
      {check.isPending && <CircularProgress aria-label={texts.common.loading} />}
      {check.isError && <Alert severity="error">{getErrorMessage(check.error)}</Alert>}
      {data && (
        <Stack spacing={3}>
          <CheckSummary check={data} />
          <Stack spacing={1.5} component="section" aria-label={t.sourcesHeading}>
            <Typography variant="h6" component="h2">
              {t.sourcesHeading}
            </Typography>
            {sortAnswers(data.sources).map((answer) => (
              <SourceAnswerCard key={answer.type} answer={answer} />
            ))}
          </Stack>
        </Stack>
      )}
    </Page>
  );
}
