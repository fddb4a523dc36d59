import { zodResolver } from '@hookform/resolvers/zod';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  type CreatePledgeEventResponse,
  DOCUMENT_TYPE_LABELS,
  PARTY_DOCUMENT_TYPES,
  PLEDGE_EVENT_KIND_FORM_LABELS,
  PLEDGE_EVENT_KINDS,
  type PledgeEventData,
  type PledgeEventKind,
  pledgeEventInputSchema,
} from '@pledgewatch/contract';
import { useEffect, useRef, useState } from 'react';
import {
  type Control,
  Controller,
  type FieldErrors,
  type Path,
  type UseFormRegister,
  useFieldArray,
  useForm,
  useWatch,
} from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { FormDateField } from '@/components/ui/form-date-field';
import { paths } from '@/config/paths';
import { texts } from '@/features/pledge-upload-events/texts';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { useCreatePledgeEvent } from '../api/create-pledge-event';

const t = texts.pledgeUploadEvents.form;

type PartyValues = {
  type: 'individual' | 'company';
  lastName: string;
  firstName: string;
  middleName: string;
  birthDate: string;
  documentType: (typeof PARTY_DOCUMENT_TYPES)[number];
  documentNumber: string;
  name: string;
  inn: string;
  ogrn: string;
};

/** Everything the form holds; the contract's schema checks it and gives the event to send. */
type FormValues = {
  kind: PledgeEventKind;
  registrationNumber: string;
  notificationDate: string;
  pledgor: PartyValues;
  pledgee: PartyValues;
  contract: { name: string; number: string; date: string; endDate: string };
  vehicles: { vin: string; bodyNumber: string; chassisNumber: string; description: string }[];
};

const emptyParty = (type: PartyValues['type']): PartyValues => ({
  type,
  lastName: '',
  firstName: '',
  middleName: '',
  birthDate: '',
  documentType: 'passport_rf',
  documentNumber: '',
  name: '',
  inn: '',
  ogrn: '',
});
const emptyVehicle = { vin: '', bodyNumber: '', chassisNumber: '', description: '' };
const defaults = (): FormValues => ({
  kind: 'creation',
  registrationNumber: '',
  notificationDate: new Date().toISOString().slice(0, 10),
  pledgor: emptyParty('individual'),
  pledgee: emptyParty('company'),
  contract: { name: 'Договор залога', number: '', date: '', endDate: '' },
  vehicles: [{ ...emptyVehicle }],
});

// The form keeps both kinds of party fields; the schema reads only the chosen kind's.
const resolver = zodResolver(pledgeEventInputSchema as never) as never;

/** One pledge notification by hand, checked as it is typed with the same rules as the server. */
export default function UploadEventsFormPage() {
  const user = useUser();
  const [result, setResult] = useState<CreatePledgeEventResponse | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues, unknown, PledgeEventData>({
    resolver,
    mode: 'onTouched',
    defaultValues: defaults(),
  });
  const { control, register, handleSubmit, formState, setError, reset } = form;
  const vehicles = useFieldArray({ control, name: 'vehicles' });
  const kind = useWatch({ control, name: 'kind' });
  const create = useCreatePledgeEvent();
  const savedRef = useRef<HTMLDivElement>(null);
  // Bring the success message into view (and focus, for screen readers) once per saved notification.
  useEffect(() => {
    if (result) {
      savedRef.current?.scrollIntoView({ block: 'center' });
      savedRef.current?.focus({ preventScroll: true });
    }
  }, [result]);

  if (user?.role === 'viewer') {
    return <Alert severity="info">{t.viewer}</Alert>;
  }

  const onSubmit = handleSubmit((event) => {
    setFormError(null);
    setResult(null);
    create.mutate(event, {
      onSuccess: (response) => {
        setResult(response);
        reset(defaults());
        // The form is long: the message above it is out of sight after a submit at the bottom.
        toast.success(t.saved(response.event.kindLabel));
      },
      onError: (error) => {
        let unmatched = !isApiError(error) || error.fieldErrors.length === 0;
        if (isApiError(error)) {
          for (const fieldError of error.fieldErrors) {
            setError(fieldError.field as Path<FormValues>, { type: 'server', message: fieldError.message });
          }
          unmatched ||= error.code !== 'VALIDATION_FAILED';
        }
        if (unmatched) {
          setFormError(getErrorMessage(error));
        }
      },
    });
  });

  const errors = formState.errors;
  const exclusionBlocked = kind === 'exclusion' && user?.role !== 'admin';

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t.heading}>
        <Stack spacing={3}>
          <div>
            <Typography variant="h6" component="h2">
              {t.heading}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t.hint}
            </Typography>
          </div>
          {result && (
            <Alert
              ref={savedRef}
              tabIndex={-1}
              severity="success"
              data-testid="pledge-event-saved"
              onClose={() => setResult(null)}
              action={
                <Button
                  color="inherit"
                  size="small"
                  component={Link}
                  to={paths.pledgesEventsRegistryTable.getHref()}
                >
                  {t.toRegistry}
                </Button>
              }
            >
              {t.saved(result.event.kindLabel)}.{' '}
              {t.monitoring(result.monitoring.added, result.monitoring.archived)}
              {result.warnings.map((warning) => (
                <Box key={warning} component="span" sx={{ display: 'block' }}>
                  {warning}
                </Box>
              ))}
            </Alert>
          )}
          {formError && (
            <Alert severity="error" role="alert" onClose={() => setFormError(null)}>
              {formError}
            </Alert>
          )}
          <Controller
            control={control}
            name="kind"
            render={({ field }) => (
              <Stack spacing={1}>
                <ToggleButtonGroup
                  exclusive
                  size="small"
                  color="primary"
                  value={field.value}
                  onChange={(_, next: PledgeEventKind | null) => next && field.onChange(next)}
                  aria-label={t.kind}
                  sx={{ flexWrap: 'wrap', '& .MuiToggleButton-root': { textTransform: 'none', px: 2 } }}
                >
                  {PLEDGE_EVENT_KINDS.map((value) => (
                    <ToggleButton key={value} value={value}>
                      {PLEDGE_EVENT_KIND_FORM_LABELS[value]}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
                <Typography variant="body2" color={exclusionBlocked ? 'error' : 'text.secondary'}>
                  {exclusionBlocked ? t.adminOnly : t.kindHint[field.value]}
                </Typography>
              </Stack>
            )}
          />
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6, md: 4 }}>
              <TextField
                {...register('registrationNumber')}
                label={t.registrationNumber}
                placeholder="2025-001-123456-789"
                fullWidth
                error={Boolean(errors.registrationNumber)}
                helperText={errors.registrationNumber?.message ?? t.registrationNumberHint}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <FormDateField
                control={control}
                name="notificationDate"
                label={t.notificationDate}
                required
                error={errors.notificationDate?.message}
              />
            </Grid>
          </Grid>
          <Divider />
          <PartyFields
            side="pledgor"
            title={t.pledgor}
            control={control}
            register={register}
            errors={errors}
          />
          <Divider />
          <PartyFields
            side="pledgee"
            title={t.pledgee}
            control={control}
            register={register}
            errors={errors}
          />
          <Divider />
          <Stack spacing={2}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {t.contract}
            </Typography>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, md: 3 }}>
                <TextField {...register('contract.name')} label={t.contractName} fullWidth />
              </Grid>
              <Grid size={{ xs: 12, sm: 4, md: 3 }}>
                <TextField
                  {...register('contract.number')}
                  label={t.contractNumber}
                  fullWidth
                  required
                  error={Boolean(errors.contract?.number)}
                  helperText={errors.contract?.number?.message}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4, md: 3 }}>
                <FormDateField
                  control={control}
                  name="contract.date"
                  label={t.contractDate}
                  required
                  error={errors.contract?.date?.message}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4, md: 3 }}>
                <FormDateField
                  control={control}
                  name="contract.endDate"
                  label={t.contractEndDate}
                  error={errors.contract?.endDate?.message}
                />
              </Grid>
            </Grid>
          </Stack>
          <Divider />
          <Stack spacing={2}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {t.vehicles}
            </Typography>
            {errors.vehicles?.root?.message && <Alert severity="error">{errors.vehicles.root.message}</Alert>}
            {vehicles.fields.map((field, index) => {
              const vehicleErrors = errors.vehicles?.[index];
              return (
                <Grid container spacing={2} key={field.id} sx={{ alignItems: 'flex-start' }}>
                  <Grid size={{ xs: 12, md: 3 }}>
                    <TextField
                      {...register(`vehicles.${index}.vin`)}
                      label={`${t.vin} · ${t.vehicle(index + 1)}`}
                      fullWidth
                      slotProps={{
                        htmlInput: { style: { textTransform: 'uppercase', fontFamily: 'monospace' } },
                      }}
                      error={Boolean(vehicleErrors?.vin)}
                      helperText={vehicleErrors?.vin?.message}
                    />
                  </Grid>
                  <Grid size={{ xs: 6, md: 2 }}>
                    <TextField {...register(`vehicles.${index}.bodyNumber`)} label={t.bodyNumber} fullWidth />
                  </Grid>
                  <Grid size={{ xs: 6, md: 2 }}>
                    <TextField
                      {...register(`vehicles.${index}.chassisNumber`)}
                      label={t.chassisNumber}
                      fullWidth
                    />
                  </Grid>
                  <Grid size={{ xs: 10, md: 4 }}>
                    <TextField
                      {...register(`vehicles.${index}.description`)}
                      label={t.description}
                      fullWidth
                    />
                  </Grid>
                  <Grid size={{ xs: 2, md: 1 }}>
                    <IconButton
                      aria-label={t.removeVehicle(index + 1)}
                      onClick={() => vehicles.remove(index)}
                      disabled={vehicles.fields.length === 1}
                      sx={{ mt: 1 }}
                    >
                      <DeleteOutlineIcon />
                    </IconButton>
                  </Grid>
                </Grid>
              );
            })}
            <Box>
              <Button startIcon={<AddIcon />} onClick={() => vehicles.append({ ...emptyVehicle })}>
                {t.addVehicle}
              </Button>
            </Box>
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button type="submit" variant="contained" loading={create.isPending} disabled={exclusionBlocked}>
              {t.submit}
            </Button>
            <Button onClick={() => reset(defaults())} disabled={create.isPending}>
              {t.reset}
            </Button>
          </Stack>
        </Stack>
      </Box>
    </Paper>
  );
}

function PartyFields({
  side,
  title,
  control,
  register,
  errors,
}: {
  side: 'pledgor' | 'pledgee';
  title: string;
  control: Control<FormValues, unknown, PledgeEventData>;
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>;
}) {
  const type = useWatch({ control, name: `${side}.type` });
  const e = errors[side];
  const field = (
    name: keyof PartyValues,
    label: string,
    size: { xs: number; sm?: number; md: number },
    extra = {},
  ) => (
    <Grid size={size}>
      <TextField
        {...register(`${side}.${name}`)}
        label={label}
        fullWidth
        error={Boolean(e?.[name])}
        helperText={e?.[name]?.message}
        {...extra}
      />
    </Grid>
  );
  return (
    <Stack spacing={2} role="group" aria-label={title}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, minWidth: 160 }}>
          {title}
        </Typography>
        <Controller
          control={control}
          name={`${side}.type`}
          render={({ field: typeField }) => (
            <ToggleButtonGroup
              exclusive
              size="small"
              value={typeField.value}
              onChange={(_, next: PartyValues['type'] | null) => next && typeField.onChange(next)}
              aria-label={t.partyType(title)}
              sx={{ '& .MuiToggleButton-root': { textTransform: 'none' } }}
            >
              <ToggleButton value="individual">{t.individual}</ToggleButton>
              <ToggleButton value="company">{t.company}</ToggleButton>
            </ToggleButtonGroup>
          )}
        />
      </Stack>
      {e?.message && <Alert severity="error">{e.message}</Alert>}
      <Grid container spacing={2}>
        {type === 'company' ? (
          <>
            {field('name', t.companyName, { xs: 12, md: 6 }, { required: true })}
            {field('inn', t.inn, { xs: 6, md: 3 }, { required: true })}
            {field('ogrn', t.ogrn, { xs: 6, md: 3 }, { required: true })}
          </>
        ) : (
          <>
            {field('lastName', t.lastName, { xs: 12, sm: 4, md: 4 }, { required: true })}
            {field('firstName', t.firstName, { xs: 12, sm: 4, md: 4 }, { required: true })}
            {field('middleName', t.middleName, { xs: 12, sm: 4, md: 4 })}
            <Grid size={{ xs: 12, sm: 4, md: 3 }}>
              <FormDateField
                control={control}
                name={`${side}.birthDate`}
                label={t.birthDate}
                required
                error={e?.birthDate?.message}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4, md: 4 }}>
              <Controller
                control={control}
                name={`${side}.documentType`}
                render={({ field: docField }) => (
                  <TextField {...docField} select label={t.documentType} fullWidth>
                    {PARTY_DOCUMENT_TYPES.map((code) => (
                      <MenuItem key={code} value={code}>
                        {DOCUMENT_TYPE_LABELS[code]}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
            {field('documentNumber', t.documentNumber, { xs: 12, sm: 4, md: 5 }, { required: true })}
          </>
        )}
      </Grid>
    </Stack>
  );
}
