/** What the pledge tests share: VINs, a creation's body, and requests. */
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import type { FastifyInstance } from 'fastify';
import { bearer, type TestUser } from '../../../testing/test-app.ts';

let serial = 100000 + Math.floor(Math.random() * 800000);

/** A VIN with a correct check digit, unique within the run. */
export function makeVin(wmi = 'XTA'): string {
  const body = `${wmi}210740P${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

export const uniqueSerial = () => ++serial;

export const SBER = { type: 'company', name: 'ПАО Сбербанк', inn: '7707083893', ogrn: '1027700132195' };

export const person = (passport = '4506 123456') => ({
  type: 'individual',
  lastName: 'Иванов',
  firstName: 'Иван',
  middleName: 'Иванович',
  birthDate: '1980-02-01',
  documentType: 'passport_rf',
  documentNumber: passport,
});

export function creationBody(vins: string[], overrides: Record<string, unknown> = {}) {
  return {
    kind: 'creation',
    notificationDate: '2025-01-15',
    pledgor: person(),
    pledgee: SBER,
    contract: { name: 'Договор залога', number: `ДЗ-${++serial}`, date: '2025-01-15', endDate: '2030-01-15' },
    vehicles: vins.map((vin) => ({ vin, description: 'LADA Granta, 2020 г.в., белый' })),
    ...overrides,
  };
}

/** Requests of one test app as a signed-in user. */
export function requester(app: FastifyInstance) {
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: TestUser, payload?: unknown) =>
    app.inject({ method, url, payload: payload as never, headers: bearer(user.token) });
  /** A multipart request with one file in the field `file` (built by the caller). */
  const upload = (url: string, user: TestUser, body: { payload: Buffer; headers: Record<string, string> }) =>
    app.inject({
      method: 'POST',
      url,
      payload: body.payload,
      headers: { ...body.headers, ...bearer(user.token) },
    });
  return { send, upload };
}
