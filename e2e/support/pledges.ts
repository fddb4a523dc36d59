import { pledgeEndpoints } from '@pledgewatch/contract';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import { apiCall, apiToken, DEMO_ANALYST } from './session.ts';

/** A valid VIN of its own for every call (the registry refuses a vehicle twice in one package). */
export function newVin(): string {
  const serial = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  const draft = `XTA21099_RY${serial}`;
  return draft.replace('_', computeVinCheckDigit(draft.replace('_', '0')));
}

/** A creation notification entered by the analyst, its pledgor named `surname`; its id. */
export async function enterPledgeEvent(surname: string): Promise<string> {
  const analyst = await apiToken(DEMO_ANALYST);
  const entered = await apiCall<{ event: { id: string } }>(
    analyst,
    'POST',
    pledgeEndpoints.createEvent.path,
    {
      kind: 'creation',
      notificationDate: '2025-03-01',
      pledgor: {
        type: 'individual',
        lastName: surname,
        firstName: 'Олег',
        birthDate: '1984-04-04',
        documentType: 'passport_rf',
        documentNumber: '4512 345678',
      },
      pledgee: { type: 'company', name: 'ПАО Сбербанк', inn: '7707083893', ogrn: '1027700132195' },
      contract: { number: `ДЗ-${surname}`, date: '2025-03-01' },
      vehicles: [{ vin: newVin(), description: 'Kia Rio' }],
    },
  );
  return entered.event.id;
}
