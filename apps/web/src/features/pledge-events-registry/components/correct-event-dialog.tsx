import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DOCUMENT_TYPE_LABELS,
  PARTY_DOCUMENT_TYPES,
  PARTY_TYPE_LABELS,
  PARTY_TYPES,
  type PledgeEvent,
  type PledgeEventInput,
} from '@pledgewatch/contract';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { DateField } from '@/components/ui/date-field';
import { texts } from '@/features/pledge-events-registry/texts';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { useCorrectPledgeEvent } from '../api/correct-pledge-event';

const t = texts.pledgeEventsRegistry.correct;

type PartyDraft = {
  type: 'individual' | 'company';
  lastName: string;
  firstName: string;
  middleName: string;
  birthDate: string;
  documentType: string;
  documentNumber: string;
  name: string;
  inn: string;
  ogrn: string;
};

type Draft = {
  pledgor: PartyDraft;
  pledgee: PartyDraft;
  registrationNumber: string;
  notificationDate: string;
  contractName: string;
  contractNumber: string;
  contractDate: string;
  contractEndDate: string;
  vehicles: { vin: string; bodyNumber: string; chassisNumber: string; description: string }[];
};

const toPartyDraft = (party: PledgeEvent['pledgor']): PartyDraft => ({
  type: party.type,
  lastName: party.lastName ?? '',
  firstName: party.firstName ?? '',
  middleName: party.middleName ?? '',
  birthDate: party.birthDate ?? '',
  documentType: party.documentType ?? 'passport_rf',
  documentNumber: party.documentNumber ?? '',
  name: party.type === 'company' ? party.name : '',
  inn: party.inn ?? '',
  ogrn: party.ogrn ?? '',
});

const toDraft = (event: PledgeEvent): Draft => ({
  pledgor: toPartyDraft(event.pledgor),
  pledgee: toPartyDraft(event.pledgee),
  registrationNumber: event.registrationNumber ?? '',
  notificationDate: event.notificationDate,
  contractName: event.contract.name ?? '',
  contractNumber: event.contract.number,
  contractDate: event.contract.date,
  contractEndDate: event.contract.endDate ?? '',
  vehicles: event.vehicles.map((v) => ({
    vin: v.vin ?? '',
    bodyNumber: v.bodyNumber ?? '',
    chassisNumber: v.chassisNumber ?? '',
    description: v.description ?? '',
  })),
});

/** A party as the form sends it: a person's or a company's fields, as its type says. */
const partyInput = (party: PartyDraft) =>
  (party.type === 'company'
    ? { type: 'company', name: party.name, inn: party.inn, ogrn: party.ogrn }
    : {
        type: 'individual',
        lastName: party.lastName,
        firstName: party.firstName,
        middleName: party.middleName.trim() || null,
        birthDate: party.birthDate,
        documentType: party.documentType,
        documentNumber: party.documentNumber,
      }) as PledgeEventInput['pledgor'];

function toInput(event: PledgeEvent, draft: Draft): PledgeEventInput {
  return {
    kind: event.kind,
    registrationNumber: draft.registrationNumber.trim() || null,
    notificationDate: draft.notificationDate,
    pledgor: partyInput(draft.pledgor),
    pledgee: partyInput(draft.pledgee),
    contract: {
      name: draft.contractName.trim() || null,
      number: draft.contractNumber,
      date: draft.contractDate,
      endDate: draft.contractEndDate || null,
    },
    vehicles: draft.vehicles.map((v) => ({
      vin: v.vin.trim() || null,
      bodyNumber: v.bodyNumber.trim() || null,
      chassisNumber: v.chassisNumber.trim() || null,
      description: v.description.trim() || null,
    })),
  } as PledgeEventInput;
}

/** Corrects a notification the registry rejected (or one in no package); the server checks every rule. */
export function CorrectEventDialog({ event, onClose }: { event: PledgeEvent; onClose: () => void }) {
  const titleId = useId();
  const [draft, setDraft] = useState(() => toDraft(event));
  const correct = useCorrectPledgeEvent({
    onSuccess: () => {
      toast.success(t.saved);
      onClose();
    },
  });
  const fieldErrors = correct.error instanceof ApiError ? correct.error.fieldErrors : [];
  const errorOf = (field: string) => fieldErrors.find((e) => e.field === field)?.message;
  type Own = keyof Omit<Draft, 'vehicles' | 'pledgor' | 'pledgee'>;
  const text = (key: Own, label: string, field: string, date = false) =>
    date ? (
      <DateField
        label={label}
        value={draft[key]}
        onChange={(value) => setDraft((d) => ({ ...d, [key]: value }))}
        error={Boolean(errorOf(field))}
        helperText={errorOf(field)}
        size="small"
      />
    ) : (
      <TextField
        label={label}
        value={draft[key]}
        onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
        error={Boolean(errorOf(field))}
        helperText={errorOf(field)}
        fullWidth
        size="small"
      />
    );
  const setVehicle = (i: number, key: keyof Draft['vehicles'][number], value: string) =>
    setDraft((d) => ({ ...d, vehicles: d.vehicles.map((v, j) => (j === i ? { ...v, [key]: value } : v)) }));
  return (
    <Dialog
      open
      onClose={correct.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>{t.title}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Alert severity="info">{t.hint}</Alert>
          {correct.isError && <Alert severity="error">{getErrorMessage(correct.error)}</Alert>}
          {text('registrationNumber', t.registrationNumber, 'registrationNumber')}
          {text('notificationDate', t.notificationDate, 'notificationDate', true)}
          {text('contractName', t.contractName, 'contract.name')}
          {text('contractNumber', t.contractNumber, 'contract.number')}
          {text('contractDate', t.contractDate, 'contract.date', true)}
          {text('contractEndDate', t.contractEndDate, 'contract.endDate', true)}
          <PartyFields
            side="pledgor"
            title={t.pledgor}
            party={draft.pledgor}
            errorOf={errorOf}
            onChange={(pledgor) => setDraft((d) => ({ ...d, pledgor }))}
          />
          <PartyFields
            side="pledgee"
            title={t.pledgee}
            party={draft.pledgee}
            errorOf={errorOf}
            onChange={(pledgee) => setDraft((d) => ({ ...d, pledgee }))}
          />
          {draft.vehicles.map((vehicle, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the notification's vehicles in a fixed order
            <Stack key={i} spacing={1}>
              <Typography variant="subtitle2">{t.vehicle(i + 1)}</Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                <TextField
                  label={t.vin(i + 1)}
                  value={vehicle.vin}
                  size="small"
                  fullWidth
                  error={Boolean(errorOf(`vehicles.${i}.vin`))}
                  helperText={errorOf(`vehicles.${i}.vin`)}
                  onChange={(e) => setVehicle(i, 'vin', e.target.value)}
                />
                <TextField
                  label={t.bodyNumber}
                  value={vehicle.bodyNumber}
                  size="small"
                  fullWidth
                  onChange={(e) => setVehicle(i, 'bodyNumber', e.target.value)}
                />
                <TextField
                  label={t.chassisNumber}
                  value={vehicle.chassisNumber}
                  size="small"
                  fullWidth
                  onChange={(e) => setVehicle(i, 'chassisNumber', e.target.value)}
                />
              </Stack>
              <TextField
                label={t.description(i + 1)}
                value={vehicle.description}
                size="small"
                fullWidth
                multiline
                error={Boolean(errorOf(`vehicles.${i}.description`))}
                helperText={errorOf(`vehicles.${i}.description`)}
                onChange={(e) => setVehicle(i, 'description', e.target.value)}
              />
            </Stack>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={correct.isPending}>
          {texts.common.cancel}
        </Button>
        <Button
          variant="contained"
          loading={correct.isPending}
          onClick={() => correct.mutate({ eventId: event.id, event: toInput(event, draft) })}
        >
          {t.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A party's fields in «Исправить уведомление»: a person (name, birth date, document) or a company. */
function PartyFields({
  side,
  title,
  party,
  errorOf,
  onChange,
}: {
  side: 'pledgor' | 'pledgee';
  title: string;
  party: PartyDraft;
  errorOf: (field: string) => string | undefined;
  onChange: (party: PartyDraft) => void;
}) {
  const field = (key: keyof PartyDraft, label: string) => (
    <TextField
      label={`${title}: ${label}`}
      value={party[key]}
      size="small"
      fullWidth
      error={Boolean(errorOf(`${side}.${key}`))}
      helperText={errorOf(`${side}.${key}`)}
      onChange={(e) => onChange({ ...party, [key]: e.target.value })}
    />
  );
  return (
    <Stack spacing={1} role="group" aria-label={title}>
      <Typography variant="subtitle2">{title}</Typography>
      <TextField
        select
        size="small"
        label={`${title}: ${t.partyType}`}
        value={party.type}
        onChange={(e) => onChange({ ...party, type: e.target.value as PartyDraft['type'] })}
      >
        {PARTY_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {PARTY_TYPE_LABELS[type]}
          </MenuItem>
        ))}
      </TextField>
      {party.type === 'company' ? (
        <>
          {field('name', t.companyName)}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            {field('inn', t.inn)}
            {field('ogrn', t.ogrn)}
          </Stack>
        </>
      ) : (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            {field('lastName', t.lastName)}
            {field('firstName', t.firstName)}
            {field('middleName', t.middleName)}
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <DateField
              label={`${title}: ${t.birthDate}`}
              value={party.birthDate}
              onChange={(birthDate) => onChange({ ...party, birthDate })}
              error={Boolean(errorOf(`${side}.birthDate`))}
              helperText={errorOf(`${side}.birthDate`)}
              size="small"
            />
            <TextField
              select
              size="small"
              fullWidth
              label={`${title}: ${t.documentType}`}
              value={party.documentType}
              onChange={(e) => onChange({ ...party, documentType: e.target.value })}
            >
              {PARTY_DOCUMENT_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {DOCUMENT_TYPE_LABELS[type]}
                </MenuItem>
              ))}
            </TextField>
            {field('documentNumber', t.documentNumber)}
          </Stack>
        </>
      )}
    </Stack>
  );
}
