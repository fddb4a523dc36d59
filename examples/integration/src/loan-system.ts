/**
 * A bank's loan system after it has issued a car loan: with an API key (created by an admin under
 * Настройки → Ключи API) it puts the cars and the pledgor on monitoring, enters the pledge
 * notification, checks the first car now and prints what the sources found, then reads the new
 * critical events of its portfolio.
 *
 * Every call is typed by `pledgewatch-api.d.ts`, generated with openapi-typescript from the served
 * document (`npm run generate -w @pledgewatch/example-integration`). Each creating call carries an
 * `Idempotency-Key` made from the loan number, so running the script again for the same loan (as a
 * loan system retries after a timeout) answers the first answers and creates nothing.
 *
 *   PLEDGEWATCH_URL=http://127.0.0.1:3000 PLEDGEWATCH_API_KEY=pwk_… \
 *     node examples/integration/src/loan-system.ts --loan 2026-000123 --vin … --vin … --vin …
 */
import { parseArgs } from 'node:util';
import createClient from 'openapi-fetch';
import type { paths } from './pledgewatch-api.d.ts';

const { values: args } = parseArgs({
  options: {
    loan: { type: 'string', default: '2026-000123' },
    vin: {
      type: 'string',
      multiple: true,
      default: ['XTA210740P0100001', 'Z94CB41AAPR123456', 'WVWZZZ1KZAW000001'],
    },
    pledgor: { type: 'string', default: 'Иванов Иван Иванович' },
    'birth-date': { type: 'string', default: '1980-02-01' },
    passport: { type: 'string', default: '4506 123456' },
  },
});
const baseUrl = process.env.PLEDGEWATCH_URL ?? 'http://127.0.0.1:3000';
const apiKey = process.env.PLEDGEWATCH_API_KEY;
if (!apiKey) {
  fail('Set PLEDGEWATCH_API_KEY to a key from Настройки → Ключи API');
}

const loan = {
  /** Idempotency keys are HTTP header values: ASCII only, so they are built from this number. */
  number: args.loan,
  contractNumber: `КД-${args.loan}`,
  date: new Date().toISOString().slice(0, 10),
  vins: args.vin,
  pledgor: { name: args.pledgor, birthDate: args['birth-date'], passport: args.passport },
};
const bank = { type: 'company', name: 'ПАО «Банк»', inn: '7707083893', ogrn: '1027700132195' } as const;

const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Every error has one shape: a stable `code` for programs and a Russian `message` for people. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) {
    const error = result.error as { code?: string; message?: string } | undefined;
    fail(`${what}: ${result.response.status} ${error?.code ?? ''} ${error?.message ?? ''}`);
  }
  return result.data;
}
const replayed = (response: Response) =>
  response.headers.get('idempotent-replayed') === 'true' ? ' (replayed)' : '';
const idempotencyKey = (step: string) => ({ header: { 'idempotency-key': `loan-${loan.number}-${step}` } });

// 1. The cars and the pledgor on monitoring.
const vinsResult = await api.POST('/api/v1/monitoring/regular-check/form-vin', {
  params: idempotencyKey('vins'),
  body: {
    rows: loan.vins.map((vin) => ({
      vin,
      contractNumber: loan.contractNumber,
      pledgorName: loan.pledgor.name,
    })),
  },
});
const vins = ok(vinsResult, 'VINs');
console.log(
  `VINs on monitoring${replayed(vinsResult.response)}: added ${vins.counts.added}, already there ${vins.counts.duplicates}, rejected ${vins.counts.rejected}`,
);
for (const row of vins.rejected) {
  console.log(`  row ${row.rowNumber} rejected: ${row.message}`);
}

const pledgorResult = await api.POST('/api/v1/monitoring/regular-check/form-doc', {
  params: idempotencyKey('pledgor'),
  body: {
    rows: [
      {
        documentType: 'passport_rf',
        number: loan.pledgor.passport,
        pledgorName: loan.pledgor.name,
        contractNumber: loan.contractNumber,
      },
    ],
  },
});
const pledgor = ok(pledgorResult, 'Pledgor');
console.log(
  `Pledgor's passport on monitoring${replayed(pledgorResult.response)}: added ${pledgor.counts.added}`,
);

// 2. The pledge notification (УЗ1). The answer may be lost on the way back: the loan system sends
// the same request with the same key again and gets the same notification, not a second one.
const [lastName = '', firstName = '', middleName = null] = loan.pledgor.name.split(' ');
const notification = {
  params: idempotencyKey('pledge'),
  body: {
    kind: 'creation' as const,
    notificationDate: loan.date,
    pledgor: {
      type: 'individual' as const,
      lastName,
      firstName,
      middleName,
      birthDate: loan.pledgor.birthDate,
      documentType: 'passport_rf' as const,
      documentNumber: loan.pledgor.passport,
    },
    pledgee: bank,
    contract: { name: 'Договор залога', number: loan.contractNumber, date: loan.date },
    vehicles: loan.vins.map((vin) => ({ vin })),
  },
};
const firstTry = await api.POST('/api/v1/pledges/events', notification);
const pledge = ok(firstTry, 'Pledge notification').event;
console.log(
  `Pledge notification${replayed(firstTry.response)}: ${pledge.form} ${pledge.id}, ${pledge.statusLabel}`,
);
const retry = await api.POST('/api/v1/pledges/events', notification);
const retried = ok(retry, 'Pledge notification, retried').event;
if (retried.id !== pledge.id) {
  fail(`The retry created a second notification ${retried.id}`);
}
console.log(
  `Retry with the same Idempotency-Key${replayed(retry.response)}: the same notification ${retried.id}`,
);

// 3. A check of the first car now, by every source.
const [firstVin = ''] = loan.vins;
const checkResult = await api.POST('/api/v1/monitoring/one-time-check', {
  params: idempotencyKey(`check-${firstVin}`),
  body: { vin: firstVin },
});
const check = ok(checkResult, 'One-time check');
console.log(
  `One-time check ${check.number} of ${check.identifier}${replayed(checkResult.response)}: ${check.status}, findings ${check.findingsCount}`,
);
for (const source of check.sources) {
  if (source.status === 'failed') {
    console.log(`  ${source.type}: unavailable — ${source.error}`);
  }
  for (const finding of source.findings) {
    console.log(`  ${source.type}: ${finding.key} ${JSON.stringify(finding.payload)}`);
  }
}

// 4. New critical events of the portfolio (they also come by webhook, see docs/integration.md).
const events = ok(
  await api.GET('/api/v1/monitoring/events/items', {
    params: { query: { read: false, severity: ['critical'], pageSize: 5 } },
  }),
  'Events',
);
console.log(`Unread critical events: ${events.total}`);
for (const event of events.items) {
  console.log(`  ${event.detectedAt} ${event.typeLabel}: ${event.item.identifier}`);
}
