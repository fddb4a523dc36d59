import { pledgeEndpoints } from '@pledgewatch/contract';
import { newVin } from './identifiers.ts';
import { apiCall, apiToken, DEMO_ANALYST } from './session.ts';

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

/** The header of a pledge-events file with the columns the end-to-end files fill. */
export const PLEDGE_FILE_HEADER = [
  'Вид уведомления',
  'Дата уведомления',
  'Залогодатель: тип',
  'Залогодатель: фамилия',
  'Залогодатель: имя',
  'Залогодатель: дата рождения',
  'Залогодатель: серия и номер документа',
  'Залогодержатель: наименование',
  'Залогодержатель: ИНН',
  'Залогодержатель: ОГРН',
  'Договор: номер',
  'Договор: дата',
  'VIN',
  'Описание ТС',
];
