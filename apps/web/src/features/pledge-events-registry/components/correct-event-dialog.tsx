import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { PledgeEvent, PledgeEventInput } from '@pledgewatch/contract';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@/features/pledge-events-registry/texts';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { useCorrectPledgeEvent } from '../api/correct-pledge-event';

const t = texts.pledgeEventsRegistry.correct;

type Draft = {
  registrationNumber: string;
  notificationDate: string;
  contractName: string;
  contractNumber: string;
  contractDate: string;
  contractEndDate: string;
  vehicles: { vin: string; description: string }[];
};

const toDraft = (event: PledgeEvent): Draft => ({
  registrationNumber: event.registrationNumber ?? '',
  notificationDate: event.notificationDate,
  contractName: event.contract.name ?? '',
  contractNumber: event.contract.number,
  contractDate: event.contract.date,
  contractEndDate: event.contract.endDate ?? '',
  vehicles: event.vehicles.map((v) => ({ vin: v.vin ?? '', description: v.description ?? '' })),
});

/** The stored parties go back as they are: the correction changes the notification's own fields. */
const partyInput = ({ name, ...party }: PledgeEvent['pledgor']) =>
  (party.type === 'company' ? { ...party, name } : party) as PledgeEventInput['pledgor'];

function toInput(event: PledgeEvent, draft: Draft): PledgeEventInput {
  return {
    kind: event.kind,
    registrationNumber: draft.registrationNumber.trim() || null,
    notificationDate: draft.notificationDate,
    pledgor: partyInput(event.pledgor),
    pledgee: partyInput(event.pledgee),
    contract: {
      name: draft.contractName.trim() || null,
      number: draft.contractNumber,
      date: draft.contractDate,
      endDate: draft.contractEndDate || null,
    },
    vehicles: event.vehicles.map((v, i) => ({
      vin: draft.vehicles[i]!.vin.trim() || null,
      bodyNumber: v.bodyNumber,
      chassisNumber: v.chassisNumber,
      description: draft.vehicles[i]!.description.trim() || null,
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
  const set = (key: keyof Omit<Draft, 'vehicles'>) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  const text = (key: keyof Omit<Draft, 'vehicles'>, label: string, field: string, date = false) => (
    <TextField
      label={label}
      value={draft[key]}
      onChange={set(key)}
      type={date ? 'date' : 'text'}
      slotProps={date ? { inputLabel: { shrink: true } } : undefined}
      error={Boolean(errorOf(field))}
      helperText={errorOf(field)}
      fullWidth
      size="small"
    />
  );
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
          {draft.vehicles.map((vehicle, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the notification's vehicles in a fixed order
            <Stack key={i} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <TextField
                label={t.vin(i + 1)}
                value={vehicle.vin}
                size="small"
                fullWidth
                error={Boolean(errorOf(`vehicles.${i}.vin`))}
                helperText={errorOf(`vehicles.${i}.vin`)}
                onChange={(e) =>
                  setDraft((d) => ({
                    ...d,
                    vehicles: d.vehicles.map((v, j) => (j === i ? { ...v, vin: e.target.value } : v)),
                  }))
                }
              />
              <TextField
                label={t.description(i + 1)}
                value={vehicle.description}
                size="small"
                fullWidth
                onChange={(e) =>
                  setDraft((d) => ({
                    ...d,
                    vehicles: d.vehicles.map((v, j) => (j === i ? { ...v, description: e.target.value } : v)),
                  }))
                }
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
