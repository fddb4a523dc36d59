import type { Finding } from '@pledgewatch/contract';
import { z } from 'zod';
import { ProviderFailure } from '../provider-failure.ts';
import {
  accidentFinding,
  finalizeFindings,
  OWNER_TYPES,
  ownershipFinding,
  pledgeFinding,
  pledgeStatusOf,
  requireDate,
  restrictionFinding,
  toIsoDate,
  wantedFinding,
} from '../provider-findings.ts';
import { parseShape } from '../provider-http.ts';

/**
 * api-cloud.ru's answers → findings: the one place its field mapping, code tables and error codes
 * live (docs/providers.md). Request shapes and the error envelope are from the vendor's docs (high);
 * the field lists come from client code (gibdd: medium; zalog: low — the notice number's field name
 * and the date formats must be confirmed by a recorded real answer, see NOTICE_NUMBER_FIELDS).
 */

/** `divtype`: who imposed a restriction (CheckAutoBot's table, providers.md §5.1). */
export const DIVTYPE: Readonly<Record<string, string>> = {
  '1': 'суд',
  '2': 'судебный пристав',
  '3': 'таможня',
  '4': 'органы соцзащиты',
  '5': 'нотариус',
  '6': 'ОВД или иные правоохранительные органы',
  '7': 'ОВД или иные правоохранительные органы',
};

/** `ogrkod`: the restriction's kind. */
export const OGRKOD: Readonly<Record<string, string>> = {
  '1': 'Запрет на регистрационные действия',
  '2': 'Запрет на снятие с учёта',
  '3': 'Запрет на регистрационные действия и прохождение ГТО',
  '4': 'Утилизация (для транспорта не старше 5 лет)',
  '5': 'Аннулирование',
};

/** The error envelope `{"error": <code>, "message": <SYMBOL>}` (HTTP 200 as often as not) → vocabulary. */
const ERROR_KINDS: Readonly<Record<string, ProviderFailure['kind']>> = {
  '498': 'quota', // TOKEN_NO_MONEY
  '499': 'credentials', // WRONG_TOKEN_KEY
  '502': 'credentials', // MISSING_REQUIRED_TOKEN_PARAMETER
  '503': 'credentials', // TOKEN_NOT_REGISTERED_IN_THE_SYSTEM
  '504': 'credentials', // TOKEN_LOCKED_IN_THE_SYSTEM
  '602': 'credentials', // no access to the method
  '123': 'blocked', // IP_NOT_REGISTERED_IN_THE_SYSTEM
  '500': 'refused', // MISSING_REQUIRED_TYPE_PARAMETER
  '766': 'refused', // MISSING_MANDATORY_PARAMETER
  '456': 'rate_limited', // MAX_LIMIT: too many requests at once
  '404': 'unavailable', // TIME_MAX_CONNECT: the registry did not answer them (retried)
  '1': 'unavailable', // API_SUSPENDED
};

export function apiCloudError(body: unknown): ProviderFailure | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) {
    return null;
  }
  const { error, message } = body as { error: unknown; message?: unknown };
  if (error === null || error === undefined || error === false || error === 0 || error === '') {
    return null;
  }
  const code = String(error);
  const symbol = typeof message === 'string' ? message.slice(0, 60) : '';
  return new ProviderFailure(ERROR_KINDS[code] ?? 'unavailable', symbol ? `${code} ${symbol}` : code);
}

const str = z.union([z.string(), z.number()]).transform(String);
const optionalStr = str.optional().nullable();

// --- pledges: /api/zalog.php?type=notary -------------------------------------------------------

/** Where the notice number may be (low confidence): the registry's own search calls it `id`. */
const NOTICE_NUMBER_FIELDS = ['referenceNumber', 'reference_number', 'number', 'regNumber', 'id'] as const;
const zalogRecordSchema = z
  .object({
    regDate: z.string(),
    pledgors: z.array(z.object({ name: z.unknown().optional() }).loose()).default([]),
    pledgees: z.array(z.object({ name: z.unknown().optional() }).loose()).default([]),
    history: z.array(z.object({ type: z.string().optional() }).loose()).default([]),
  })
  .loose();
export const zalogAnswerSchema = z.object({
  rez: z.array(z.unknown()).optional(),
  message: z.unknown().optional(),
});

const nameOf = (value: unknown) =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value
      ? (value as { name?: unknown }).name
      : '';

export function zalogFindings(records: unknown[]): Finding[] {
  return finalizeFindings(
    records.map((raw) => {
      const record = parseShape(zalogRecordSchema, raw);
      const number = NOTICE_NUMBER_FIELDS.map((field) => record[field]).find(
        (value) => typeof value === 'string' && /^\d{4}-\d{3}-\d{6}-\d{3}/.test(value),
      );
      if (typeof number !== 'string') {
        throw new ProviderFailure('unreadable', 'нет номера уведомления');
      }
      return pledgeFinding({
        number,
        status: pledgeStatusOf(record.history.map((entry) => entry.type)),
        registeredAt: requireDate(record.regDate, 'regDate'),
        pledgors: record.pledgors.map((party) => nameOf(party.name)),
        pledgees: record.pledgees.map((party) => nameOf(party.name)),
      });
    }),
    'notice_number',
  );
}

// --- traffic police: /api/gibdd.php ------------------------------------------------------------

export const listAnswerSchema = z.object({ count: z.unknown().optional(), records: z.array(z.unknown()) });

const restrictSchema = z
  .object({
    dateogr: z.string(),
    regname: optionalStr,
    divtype: optionalStr,
    divtypeinfo: optionalStr,
    ogrkod: optionalStr,
    ogrkodinfo: optionalStr,
    osnOgr: optionalStr,
  })
  .loose();

export function restrictFindings(records: unknown[]): Finding[] {
  return finalizeFindings(
    records.map((raw) => {
      const record = parseShape(restrictSchema, raw);
      const imposedAt = requireDate(record.dateogr, 'dateogr');
      const kind = record.ogrkodinfo || OGRKOD[record.ogrkod ?? ''] || '';
      if (!kind) {
        throw new ProviderFailure('unreadable', 'поле ogrkod: неизвестный вид ограничения');
      }
      return restrictionFinding({
        imposedAt,
        kind,
        imposedBy: DIVTYPE[record.divtype ?? ''] ?? record.divtypeinfo,
        basis: record.osnOgr,
        region: record.regname,
      });
    }),
    'record_id',
  );
}

const wantedSchema = z
  .object({ w_data_pu: z.string(), w_reg_inic: optionalStr, w_vid_uch: optionalStr, w_model: optionalStr })
  .loose();

export function wantedFindings(records: unknown[]): Finding[] {
  return finalizeFindings(
    records.map((raw) => {
      const record = parseShape(wantedSchema, raw);
      return wantedFinding({
        since: requireDate(record.w_data_pu, 'w_data_pu'),
        region: record.w_reg_inic,
        note: record.w_vid_uch,
      });
    }),
    'record_id',
  );
}

const dtpSchema = z
  .object({
    AccidentNumber: str,
    AccidentDateTime: z.string(),
    AccidentType: optionalStr,
    AccidentPlace: optionalStr,
    RegionName: optionalStr,
    VehicleDamageState: optionalStr,
  })
  .loose();

export function dtpFindings(records: unknown[]): Finding[] {
  return finalizeFindings(
    records.map((raw) => {
      const record = parseShape(dtpSchema, raw);
      return accidentFinding({
        number: record.AccidentNumber,
        date: requireDate(record.AccidentDateTime, 'AccidentDateTime'),
        region: record.RegionName,
        kind: record.AccidentType,
        damage: record.VehicleDamageState,
        note: record.AccidentPlace,
      });
    }),
    'record_id',
  );
}

const periodSchema = z
  .object({
    from: z.string(),
    to: optionalStr,
    lastOperation: optionalStr,
    lastOperationInfo: optionalStr,
    simplePersonType: optionalStr,
    simplePersonTypeInfo: optionalStr,
  })
  .loose();
export const gibddAnswerSchema = z
  .object({
    found: z.union([z.boolean(), z.number(), z.string()]).optional(),
    ownershipPeriod: z.unknown().optional(),
  })
  .loose();

/** One finding per ownership period, keyed by its start (as Avtocod's periods are). */
export function registrationFindings(periods: unknown[]): Finding[] {
  return finalizeFindings(
    periods.map((raw) => {
      const period = parseShape(periodSchema, raw);
      return ownershipFinding({
        from: requireDate(period.from, 'ownershipPeriod.from'),
        to: toIsoDate(period.to),
        operation: period.lastOperationInfo || period.lastOperation,
        ownerType:
          period.simplePersonTypeInfo ||
          OWNER_TYPES[period.simplePersonType ?? ''] ||
          period.simplePersonType,
      });
    }),
    'record_id',
  );
}
