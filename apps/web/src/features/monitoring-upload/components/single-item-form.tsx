import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { DOCUMENT_TYPE_LABELS, ITEM_TEXT_LIMITS } from '@pledgewatch/contract';
import {
  DOCUMENT_NUMBER_LABELS,
  DOCUMENT_TYPE_CODES,
  type DocumentType,
  documentTypeSchema,
  formatDocument,
  validateDocument,
  vinSchema,
} from '@pledgewatch/identifiers';
import { useState } from 'react';
import { Controller, type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/monitoring-upload/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useAddDocumentItems } from '../api/add-document-items';
import { useAddVinItems } from '../api/add-vin-items';
import { type AddOutcome, toOutcome } from '../utils/add-outcome';
import { typedVin } from '../utils/grid-rows';
import { AddResult } from './add-result';
import { VinPreview } from './vin-preview';

const t = texts.monitoringUpload.single;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: t.tooLong(max) });
const extraFields = {
  label: text(ITEM_TEXT_LIMITS.label),
  contractNumber: text(ITEM_TEXT_LIMITS.contractNumber),
  pledgorName: text(ITEM_TEXT_LIMITS.pledgorName),
};

const vinFormSchema = z.object({ vin: vinSchema, ...extraFields });
const documentFormSchema = z
  .object({ documentType: documentTypeSchema, number: z.string(), ...extraFields })
  .superRefine((value, ctx) => {
    const result = validateDocument(value.documentType, value.number);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.error, path: ['number'] });
    }
  });

const nullIfEmpty = (value: string) => (value === '' ? null : value);

type Kind = 'vin' | 'document';

/** Adds one VIN or one document by hand, with the identifier checked as it is typed. */
export function SingleItemForm() {
  const [kind, setKind] = useState<Kind>('vin');
  const [outcome, setOutcome] = useState<AddOutcome | null>(null);
  return (
    <Stack spacing={2.5}>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={kind}
        onChange={(_, next: Kind | null) => {
          if (next) {
            setKind(next);
            setOutcome(null);
          }
        }}
        aria-label={t.kind}
        sx={{ '& .MuiToggleButton-root': { textTransform: 'none', px: 2.5 } }}
      >
        <ToggleButton value="vin">{t.kindVin}</ToggleButton>
        <ToggleButton value="document">{t.kindDocument}</ToggleButton>
      </ToggleButtonGroup>
      {kind === 'vin' ? <VinForm onResult={setOutcome} /> : <DocumentForm onResult={setOutcome} />}
      {outcome && <AddResult outcome={outcome} showRowNumbers={false} kindOf={() => kind} />}
    </Stack>
  );
}

type ExtraFieldName = 'label' | 'contractNumber' | 'pledgorName';

function ExtraFields({
  register,
  errors,
}: {
  register: (name: ExtraFieldName) => UseFormRegisterReturn;
  errors: Partial<Record<ExtraFieldName, { message?: string }>>;
}) {
  return (
    <>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextField
          {...register('label')}
          label={t.label}
          fullWidth
          error={Boolean(errors.label)}
          helperText={errors.label?.message ?? t.labelHint}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextField
          {...register('contractNumber')}
          label={t.contractNumber}
          fullWidth
          error={Boolean(errors.contractNumber)}
          helperText={errors.contractNumber?.message}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextField
          {...register('pledgorName')}
          label={t.pledgorName}
          fullWidth
          error={Boolean(errors.pledgorName)}
          helperText={errors.pledgorName?.message}
        />
      </Grid>
    </>
  );
}

function VinForm({ onResult }: { onResult: (outcome: AddOutcome | null) => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const add = useAddVinItems();
  const {
    register,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(vinFormSchema),
    mode: 'onChange',
    defaultValues: { vin: '', label: '', contractNumber: '', pledgorName: '' },
  });
  const vin = watch('vin');

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    onResult(null);
    const row = {
      vin: values.vin,
      label: nullIfEmpty(values.label),
      contractNumber: nullIfEmpty(values.contractNumber),
      pledgorName: nullIfEmpty(values.pledgorName),
    };
    add.mutate(
      { rows: [row] },
      {
        onSuccess: (response) => {
          onResult(toOutcome(response, [values.vin], [1]));
          const rejected = response.rejected[0];
          if (rejected) {
            setError(
              rejected.field === 'vin' || rejected.field === null ? 'vin' : (rejected.field as 'label'),
              {
                type: 'server',
                message: rejected.message,
              },
            );
            return;
          }
          if (response.added.length + response.restored.length > 0) {
            toast.success(t.added);
            reset();
          }
        },
        onError: (error) => setFormError(getErrorMessage(error)),
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t.vinFormLabel}>
      <Stack spacing={2}>
        <FormAlert message={formError} />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <TextField
              {...register('vin', {
                // Kept in capitals as typed, like the pledge form: what is seen is what is sent.
                onChange: (event: { target: HTMLInputElement }) => {
                  event.target.value = typedVin(event.target.value);
                },
              })}
              label={t.vin}
              required
              fullWidth
              autoComplete="off"
              error={Boolean(errors.vin) && vin !== ''}
              helperText={(vin !== '' && errors.vin?.message) || t.vinHint}
              slotProps={{
                htmlInput: {
                  maxLength: 40,
                  spellCheck: false,
                  style: {
                    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                    textTransform: 'uppercase',
                  },
                },
              }}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <VinPreview value={vin} />
          </Grid>
          <ExtraFields register={(name) => register(name)} errors={errors} />
        </Grid>
        <Stack direction="row">
          <Button type="submit" variant="contained" loading={add.isPending}>
            {t.submit}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}

function DocumentForm({ onResult }: { onResult: (outcome: AddOutcome | null) => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const add = useAddDocumentItems();
  const {
    register,
    control,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(documentFormSchema),
    mode: 'onChange',
    defaultValues: {
      documentType: 'passport_rf' as DocumentType,
      number: '',
      label: '',
      contractNumber: '',
      pledgorName: '',
    },
  });
  const [documentType, number] = watch(['documentType', 'number']);
  const valid = number.trim() !== '' ? validateDocument(documentType, number) : null;

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    onResult(null);
    add.mutate(
      {
        rows: [
          {
            documentType: values.documentType,
            number: values.number,
            label: nullIfEmpty(values.label),
            contractNumber: nullIfEmpty(values.contractNumber),
            pledgorName: nullIfEmpty(values.pledgorName),
          },
        ],
      },
      {
        onSuccess: (response) => {
          onResult(toOutcome(response, [values.number], [1]));
          const rejected = response.rejected[0];
          if (rejected) {
            setError('number', { type: 'server', message: rejected.message });
            return;
          }
          if (response.added.length + response.restored.length > 0) {
            toast.success(t.added);
            reset({ ...values, number: '', label: '', contractNumber: '', pledgorName: '' });
          }
        },
        onError: (error) => setFormError(getErrorMessage(error)),
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t.documentFormLabel}>
      <Stack spacing={2}>
        <FormAlert message={formError} />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <Controller
              control={control}
              name="documentType"
              render={({ field }) => (
                <TextField
                  {...field}
                  select
                  fullWidth
                  label={t.documentType}
                  error={Boolean(errors.documentType)}
                  helperText={errors.documentType?.message}
                >
                  {DOCUMENT_TYPE_CODES.map((code) => (
                    <MenuItem key={code} value={code}>
                      {DOCUMENT_TYPE_LABELS[code]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 8 }}>
            <TextField
              {...register('number')}
              label={DOCUMENT_NUMBER_LABELS[documentType]}
              required
              fullWidth
              autoComplete="off"
              error={Boolean(errors.number) && number !== ''}
              helperText={
                (number !== '' && errors.number?.message) ||
                (valid?.ok ? t.willBeSaved(formatDocument(documentType, valid.value)) : t.numberHint)
              }
              slotProps={{ htmlInput: { maxLength: 60, spellCheck: false } }}
            />
          </Grid>
          <ExtraFields register={(name) => register(name)} errors={errors} />
        </Grid>
        <Stack direction="row">
          <Button type="submit" variant="contained" loading={add.isPending}>
            {t.submit}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
