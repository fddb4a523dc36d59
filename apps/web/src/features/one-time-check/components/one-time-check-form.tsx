import { zodResolver } from '@hookform/resolvers/zod';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { ITEM_KINDS, type OneTimeCheckBody, SOURCE_TYPES } from '@pledgewatch/contract';
import {
  DOCUMENT_NUMBER_LABELS,
  DOCUMENT_TYPE_CODES,
  DOCUMENT_TYPES,
  formatDocument,
  VIN_LENGTH,
  validateDocument,
  validateVin,
} from '@pledgewatch/identifiers';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/one-time-check/texts';
import { sourcesFor } from './check-sources';
import { VinPreview } from './vin-preview';

const t = texts.oneTimeCheck;

/** The identifier rules come from @pledgewatch/identifiers: the same messages as the server's. */
const formSchema = z
  .object({
    kind: z.enum(ITEM_KINDS),
    vin: z.string(),
    documentType: z.enum(DOCUMENT_TYPE_CODES),
    documentNumber: z.string(),
  })
  .superRefine((values, ctx) => {
    if (values.kind === 'vin') {
      const result = validateVin(values.vin);
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', path: ['vin'], message: result.error });
      }
      return;
    }
    const result = validateDocument(values.documentType, values.documentNumber);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', path: ['documentNumber'], message: result.error });
    }
  });

export type OneTimeCheckFormValues = z.infer<typeof formSchema>;

export const EMPTY_CHECK_FORM: OneTimeCheckFormValues = {
  kind: 'vin',
  vin: '',
  documentType: 'passport_rf',
  documentNumber: '',
};

export function toCheckBody(values: OneTimeCheckFormValues): OneTimeCheckBody {
  return values.kind === 'vin'
    ? { vin: values.vin }
    : { documentType: values.documentType, documentNumber: values.documentNumber };
}

type OneTimeCheckFormProps = {
  defaultValues: OneTimeCheckFormValues;
  pending: boolean;
  error: string | null;
  onSubmit: (values: OneTimeCheckFormValues) => void;
};

/** VIN or document with live validation; the VIN decoding shows as soon as the VIN is valid. */
export function OneTimeCheckForm({ defaultValues, pending, error, onSubmit }: OneTimeCheckFormProps) {
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm<OneTimeCheckFormValues>({
    resolver: zodResolver(formSchema),
    defaultValues,
    mode: 'onTouched',
  });
  const [kind, vin, documentType, documentNumber] = useWatch({
    control,
    name: ['kind', 'vin', 'documentType', 'documentNumber'],
  });

  const vinResult = kind === 'vin' && vin.trim() ? validateVin(vin) : null;
  const documentResult =
    kind === 'document' && documentNumber.trim() ? validateDocument(documentType, documentNumber) : null;
  const sources = sourcesFor(kind, kind === 'document' ? documentType : null);

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label={t.form.title}>
        <Stack spacing={2.5}>
          <FormAlert message={error} />
          <ToggleButtonGroup
            exclusive
            color="primary"
            size="small"
            value={kind}
            aria-label={t.form.kind}
            onChange={(_, next: OneTimeCheckFormValues['kind'] | null) => {
              if (next) {
                setValue('kind', next, { shouldValidate: false });
              }
            }}
          >
            <ToggleButton value="vin">{t.form.kindVin}</ToggleButton>
            <ToggleButton value="document">{t.form.kindDocument}</ToggleButton>
          </ToggleButtonGroup>

          {kind === 'vin' ? (
            <TextField
              {...register('vin')}
              label={t.form.vin}
              autoFocus
              autoComplete="off"
              error={Boolean(errors.vin)}
              helperText={
                errors.vin?.message ??
                t.form.vinHelper(vinResult?.ok ? VIN_LENGTH : countVinChars(vin), VIN_LENGTH)
              }
              slotProps={{
                htmlInput: {
                  spellCheck: false,
                  style: {
                    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                    letterSpacing: 1,
                  },
                },
              }}
            />
          ) : (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={t.form.documentType}
                value={documentType}
                onChange={(event) =>
                  setValue('documentType', event.target.value as OneTimeCheckFormValues['documentType'], {
                    shouldValidate: Boolean(documentNumber),
                  })
                }
                sx={{ minWidth: { sm: 260 } }}
              >
                {DOCUMENT_TYPE_CODES.map((code) => (
                  <MenuItem key={code} value={code}>
                    {DOCUMENT_TYPES[code]}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                {...register('documentNumber')}
                label={DOCUMENT_NUMBER_LABELS[documentType]}
                autoFocus
                autoComplete="off"
                fullWidth
                error={Boolean(errors.documentNumber)}
                helperText={
                  errors.documentNumber?.message ??
                  (documentResult?.ok
                    ? t.form.documentRecognised(formatDocument(documentType, documentResult.value))
                    : t.form.documentHelper)
                }
              />
            </Stack>
          )}

          {vinResult?.ok && <VinPreview decoded={vinResult.decoded} warnings={vinResult.warnings} />}

          <Divider />
          <Stack spacing={1}>
            <Typography variant="subtitle2">{t.form.sourcesTitle}</Typography>
            {sources.length > 0 ? (
              <Typography variant="body2" color="text.secondary" data-testid="check-sources">
                {sources.map((type) => SOURCE_TYPES[type].name).join(' · ')}
              </Typography>
            ) : (
              <Alert severity="info">{t.form.noSources}</Alert>
            )}
          </Stack>
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button
              type="submit"
              variant="contained"
              size="large"
              startIcon={<SearchIcon />}
              loading={pending}
            >
              {t.form.submit}
            </Button>
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}

const countVinChars = (value: string) => value.replace(/[\s-]/g, '').length;
