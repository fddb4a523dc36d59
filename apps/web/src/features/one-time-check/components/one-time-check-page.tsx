import HistoryIcon from '@mui/icons-material/History';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DOCUMENT_TYPE_CODES,
  DOCUMENT_TYPES,
  type DocumentType,
  formatDocument,
  normalizeDocument,
  normalizeVin,
} from '@pledgewatch/identifiers';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { texts } from '@/features/one-time-check/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useCreateOneTimeCheck } from '../api/create-one-time-check';
import { CheckProgress } from './check-progress';
import { sourcesFor } from './check-sources';
import {
  EMPTY_CHECK_FORM,
  OneTimeCheckForm,
  type OneTimeCheckFormValues,
  toCheckBody,
} from './one-time-check-form';

const t = texts.oneTimeCheck;

const isDocumentType = (value: string | null): value is DocumentType =>
  DOCUMENT_TYPE_CODES.some((code) => code === value);

/** `?vin=` or `?documentType=&documentNumber=` prefill the form (the dashboard's quick check box). */
function initialValues(params: URLSearchParams): OneTimeCheckFormValues {
  const vin = params.get('vin');
  const documentType = params.get('documentType');
  const documentNumber = params.get('documentNumber');
  if (documentNumber) {
    return {
      ...EMPTY_CHECK_FORM,
      kind: 'document',
      documentType: isDocumentType(documentType) ? documentType : EMPTY_CHECK_FORM.documentType,
      documentNumber,
    };
  }
  return { ...EMPTY_CHECK_FORM, vin: vin ?? '' };
}

export default function OneTimeCheckPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [running, setRunning] = useState<OneTimeCheckFormValues | null>(null);
  const [error, setError] = useState<string | null>(null);
  // After a failed check the form comes back with what was typed.
  const [lastValues, setLastValues] = useState<OneTimeCheckFormValues | null>(null);
  const create = useCreateOneTimeCheck();

  const onSubmit = (values: OneTimeCheckFormValues) => {
    setError(null);
    setRunning(values);
    setLastValues(values);
    create.mutate(toCheckBody(values), {
      onSuccess: (check) =>
        navigate(`${paths.oneTimeCheckResults.getHref()}?${new URLSearchParams({ id: check.id })}`),
      onError: (failure) => {
        setRunning(null);
        setError(getErrorMessage(failure));
      },
    });
  };

  return (
    <Page
      title={t.form.title}
      actions={
        <Button component={Link} to={paths.oneTimeCheckTable.getHref()} startIcon={<HistoryIcon />}>
          {t.form.history}
        </Button>
      }
    >
      <Stack spacing={3} sx={{ maxWidth: 880 }}>
        <Typography color="text.secondary">{t.form.hint}</Typography>
        {running ? (
          <CheckProgress
            identifier={
              running.kind === 'vin'
                ? normalizeVin(running.vin)
                : `${DOCUMENT_TYPES[running.documentType]} ${formatDocument(
                    running.documentType,
                    normalizeDocument(running.documentType, running.documentNumber),
                  )}`
            }
            sources={sourcesFor(running.kind, running.kind === 'document' ? running.documentType : null)}
          />
        ) : (
          <OneTimeCheckForm
            defaultValues={lastValues ?? initialValues(params)}
            pending={create.isPending}
            error={error}
            onSubmit={onSubmit}
          />
        )}
      </Stack>
    </Page>
  );
}
