// Over 500 lines by design: the schema catalogue of the pledges API (events, forms, packages).
import {
  DOCUMENT_TYPES,
  isValidInn,
  isValidOgrn,
  isValidOgrnip,
  validateDocument,
  validateVin,
} from '@pledgewatch/identifiers';
import { z } from 'zod';
import { isoDateTime, PAGE_SIZE_MAX, requestExamples } from './common.ts';
import { calendarDateSchema, isCalendarDay } from './dates.ts';
import { VALIDATION_MESSAGES as M } from './messages.ts';

/**
 * The pledge registry (`/pledges/upload-events`, `/pledges/events-registry`): notifications about
 * pledges of vehicles (creation, change, exclusion), the pledges they shape, and packages of
 * notifications submitted to the Federal Notary Chamber's registry. Layouts: docs/pledges.md.
 */

// ─── Kinds, states, labels ──────────────────────────────────────────────────────────────────

export const PLEDGE_EVENT_KINDS = ['creation', 'change', 'exclusion'] as const;
export const pledgeEventKindSchema = z
  .enum(PLEDGE_EVENT_KINDS, {
    error: 'Вид уведомления: возникновение (УЗ1), изменение (УИ1) или исключение (УП1)',
  })
  .describe(
    'creation — возникновение залога (форма УЗ1); change — изменение (УИ1); exclusion — исключение (УП1)',
  );
export type PledgeEventKind = z.infer<typeof pledgeEventKindSchema>;
export const PLEDGE_EVENT_KIND_LABELS: Record<PledgeEventKind, string> = {
  creation: 'Возникновение',
  change: 'Изменение',
  exclusion: 'Исключение',
};
/**
 * The notary forms of the three notifications (order of the Ministry of Justice № 131 of
 * 17.06.2014): УЗ1 creation, УИ1 change, УП1 exclusion. УЗ2, УИ2 and УП2 are the same three for
 * pledges that secure bonds, which the product does not handle (BOND_PLEDGE_FORMS).
 */
export const PLEDGE_EVENT_FORMS = {
  creation: 'УЗ1',
  change: 'УИ1',
  exclusion: 'УП1',
} as const satisfies Record<PledgeEventKind, string>;
export type PledgeEventForm = (typeof PLEDGE_EVENT_FORMS)[PledgeEventKind];
/** «Возникновение (УЗ1)»: the kind with its form, as screens and files name it. */
export const PLEDGE_EVENT_KIND_FORM_LABELS: Record<PledgeEventKind, string> = {
  creation: `${PLEDGE_EVENT_KIND_LABELS.creation} (${PLEDGE_EVENT_FORMS.creation})`,
  change: `${PLEDGE_EVENT_KIND_LABELS.change} (${PLEDGE_EVENT_FORMS.change})`,
  exclusion: `${PLEDGE_EVENT_KIND_LABELS.exclusion} (${PLEDGE_EVENT_FORMS.exclusion})`,
};
/**
 * Form codes a file may carry that are not ours: what each is, for the row's error. УЗ3 is no
 * approved form at all (older versions of this product called exclusion so).
 */
export const BOND_PLEDGE_FORMS: Record<string, string> = {
  УЗ2: 'УЗ2 — уведомление о возникновении залога в обеспечение исполнения обязательств по облигациям',
  УИ2: 'УИ2 — уведомление об изменении залога в обеспечение исполнения обязательств по облигациям',
  УП2: 'УП2 — уведомление об исключении сведений о залоге в обеспечение исполнения обязательств по облигациям',
  УЗ3: 'УЗ3 — такой формы нет среди утверждённых форм уведомлений о залоге',
};
/** The row error for a bond-pledge form code (or УЗ3), or null when the text is no such code. */
export function unsupportedFormMessage(kindText: string): string | null {
  const code = kindText.toUpperCase().replace(/[\s\-–—.]/g, '');
  const what = BOND_PLEDGE_FORMS[code];
  return what
    ? `Вид уведомления: ${what}. Такие уведомления не поддерживаются: возникновение залога — форма УЗ1, изменение — УИ1, исключение — УП1`
    : null;
}

export const PLEDGE_STATUSES = ['active', 'changed', 'excluded'] as const;
export const pledgeStatusSchema = z
  .enum(PLEDGE_STATUSES)
  .describe('Состояние залога в реестре: active — действует; changed — изменён; excluded — исключён');
export type PledgeStatus = z.infer<typeof pledgeStatusSchema>;
export const PLEDGE_STATUS_LABELS: Record<PledgeStatus, string> = {
  active: 'Действует',
  changed: 'Изменён',
  excluded: 'Исключён',
};

export const PACKAGE_STATUSES = ['draft', 'ready', 'sent', 'registered', 'rejected'] as const;
export const packageStatusSchema = z
  .enum(PACKAGE_STATUSES)
  .describe('draft → ready (одобрен вторым сотрудником) → sent → registered | rejected');
export type PackageStatus = z.infer<typeof packageStatusSchema>;
export const PACKAGE_STATUS_LABELS: Record<PackageStatus, string> = {
  draft: 'Черновик',
  ready: 'Готов к отправке',
  sent: 'Отправлен',
  registered: 'Зарегистрирован',
  rejected: 'Отклонён',
};

/** Submission state of an event: its package's status, or `new` while it is in no package. */
export const EVENT_SUBMISSION_STATUSES = ['new', ...PACKAGE_STATUSES] as const;
export const eventSubmissionStatusSchema = z.enum(EVENT_SUBMISSION_STATUSES, {
  error: 'Статус: new, draft, ready, sent, registered или rejected',
});
export type EventSubmissionStatus = z.infer<typeof eventSubmissionStatusSchema>;
export const EVENT_SUBMISSION_STATUS_LABELS: Record<EventSubmissionStatus, string> = {
  new: 'Не в пакете',
  ...PACKAGE_STATUS_LABELS,
  rejected: 'Отказ реестра',
};

/** Days before the contract term ends when a registered pledge is flagged (the lapse warning). */
export const PLEDGE_LAPSE_DAYS = 30;

// ─── Field rules (the form and every file row use the same ones) ───────────────────────────

/**
 * Registration number of a notification in the Federal Notary Chamber's registry:
 * «ГГГГ-ННН-НННННН-ННН» — year of registration (from 2014), then 3, 6 and 3 digits.
 */
export const REGISTRATION_NUMBER_PATTERN = /^(\d{4})-\d{3}-\d{6}-\d{3}$/;
export const REGISTRATION_NUMBER_RULE = 'формат ГГГГ-ННН-НННННН-ННН, например 2024-001-234567-890';
/**
 * The number the registry gives a later notice (a change, an exclusion): the creation's number with
 * «/N», the notice's sequence (e.g. 2013-001-406288-623/241).
 */
export const NOTICE_NUMBER_PATTERN = /^(\d{4})-\d{3}-\d{6}-\d{3}(?:\/[1-9]\d{0,5})?$/;
export const NOTICE_NUMBER_RULE =
  'формат ГГГГ-ННН-НННННН-ННН, для изменения и исключения — также с «/N», например 2024-001-234567-890/2';

/**
 * A registration number as typed or read from a file. `notice: true` takes a later notice's number
 * too (with «/N»); without it only a creation's number is valid.
 */
export function validateRegistrationNumber(
  input: string,
  options: { notice?: boolean } = {},
): { ok: true; value: string } | { ok: false; error: string } {
  const value = input.trim().replace(/\s+/g, '').replace(/[‐-―]/g, '-');
  const match = (options.notice ? NOTICE_NUMBER_PATTERN : REGISTRATION_NUMBER_PATTERN).exec(value);
  if (!match) {
    return {
      ok: false,
      error: `Регистрационный номер: ${options.notice ? NOTICE_NUMBER_RULE : REGISTRATION_NUMBER_RULE}`,
    };
  }
  const year = Number(match[1]);
  if (year < 2014 || year > new Date().getFullYear() + 1) {
    return {
      ok: false,
      error: `Регистрационный номер: год ${year} невозможен (реестр ведётся с 2014 года)`,
    };
  }
  return { ok: true, value };
}

/** A date typed as ДД.ММ.ГГГГ or ГГГГ-ММ-ДД (an Excel serial day too) → ГГГГ-ММ-ДД, or null. */
export function parseRuDate(input: string): string | null {
  const text = input.trim();
  let y: number;
  let m: number;
  let d: number;
  // A bank's export may carry the time of day after the date («15.01.2025 0:00:00»): the day counts.
  const ru = /^(\d{1,2})[./](\d{1,2})[./](\d{4})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(text);
  if (ru) {
    d = Number(ru[1]);
    m = Number(ru[2]);
    y = Number(ru[3]);
  } else if (iso) {
    y = Number(iso[1]);
    m = Number(iso[2]);
    d = Number(iso[3]);
  } else if (/^\d{5}(?:\.\d+)?$/.test(text) && Number(text) > 20000 && Number(text) < 80000) {
    // Excel stores dates as days since 1899-12-30, a date-time cell with the time as the fraction.
    const date = new Date(Date.UTC(1899, 11, 30) + Math.floor(Number(text)) * 86_400_000);
    return date.toISOString().slice(0, 10);
  } else {
    return null;
  }
  if (!isCalendarDay(y, m, d) || y < 1900 || y > 2100) {
    return null;
  }
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const text = (label: string, max: number) =>
  z
    .string({ error: `${label}: ${M.required.toLowerCase()}` })
    .trim()
    .min(1, { error: `${label}: ${M.required.toLowerCase()}` })
    .max(max, { error: `${label}: ${M.maxLength(max).toLowerCase()}` });

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label}: ${M.maxLength(max).toLowerCase()}` })
    .nullish()
    .transform((value) => (value ? value : null));

const dateField = (label: string) =>
  z.string({ error: `${label}: ${M.required.toLowerCase()}` }).transform((input, ctx) => {
    if (input.trim() === '') {
      ctx.addIssue({ code: 'custom', message: `${label}: ${M.required.toLowerCase()}` });
      return z.NEVER;
    }
    const value = parseRuDate(input);
    if (!value) {
      ctx.addIssue({ code: 'custom', message: `${label}: дата в формате ДД.ММ.ГГГГ` });
      return z.NEVER;
    }
    return value;
  });

const optionalDateField = (label: string) =>
  z
    .string()
    .nullish()
    .transform((input, ctx) => {
      if (!input || input.trim() === '') {
        return null;
      }
      const value = parseRuDate(input);
      if (!value) {
        ctx.addIssue({ code: 'custom', message: `${label}: дата в формате ДД.ММ.ГГГГ` });
        return z.NEVER;
      }
      return value;
    });

/** Identity documents an individual party may present. */
export const PARTY_DOCUMENT_TYPES = ['passport_rf', 'driving_licence'] as const;
export const partyDocumentTypeSchema = z.enum(PARTY_DOCUMENT_TYPES, {
  error: 'Документ: паспорт РФ или водительское удостоверение',
});
export type PartyDocumentType = z.infer<typeof partyDocumentTypeSchema>;

export const PARTY_TYPES = ['individual', 'company'] as const;
export const PARTY_TYPE_LABELS: Record<(typeof PARTY_TYPES)[number], string> = {
  individual: 'Физическое лицо',
  company: 'Юридическое лицо',
};

/** INN and OGRN are checked field by field, so each shows its own message while the form is filled. */
const innField = (role: string) =>
  z.string({ error: `${role}: ИНН — обязательное поле` }).transform((input, ctx) => {
    const inn = input.replace(/\s+/g, '');
    if (!/^\d{10}$|^\d{12}$/.test(inn)) {
      ctx.addIssue({ code: 'custom', message: `${role}: ИНН — 10 или 12 цифр` });
      return z.NEVER;
    }
    if (!isValidInn(inn)) {
      ctx.addIssue({ code: 'custom', message: `${role}: ИНН — неверная контрольная сумма` });
      return z.NEVER;
    }
    return inn;
  });

const ogrnField = (role: string) =>
  z.string({ error: `${role}: ОГРН — обязательное поле` }).transform((input, ctx) => {
    const ogrn = input.replace(/\s+/g, '');
    if (!/^\d{13}$|^\d{15}$/.test(ogrn)) {
      ctx.addIssue({ code: 'custom', message: `${role}: ОГРН — 13 цифр (ОГРНИП — 15)` });
      return z.NEVER;
    }
    if (!(isValidOgrn(ogrn) || isValidOgrnip(ogrn))) {
      ctx.addIssue({ code: 'custom', message: `${role}: ОГРН — неверная контрольная сумма` });
      return z.NEVER;
    }
    return ogrn;
  });

/** A party as given (the role name prefixes every message, e.g. «Залогодатель: ИНН …»). */
export const partySchema = (role: string) =>
  z
    .discriminatedUnion(
      'type',
      [
        z.object({
          type: z.literal('individual'),
          lastName: text(`${role}: фамилия`, 100),
          firstName: text(`${role}: имя`, 100),
          middleName: optionalText(`${role}: отчество`, 100),
          birthDate: dateField(`${role}: дата рождения`),
          documentType: partyDocumentTypeSchema,
          documentNumber: z.string({ error: `${role}: номер документа — обязательное поле` }),
        }),
        z.object({
          type: z.literal('company'),
          name: text(`${role}: наименование`, 300),
          inn: innField(role),
          ogrn: ogrnField(role),
        }),
      ],
      { error: `${role}: выберите физическое или юридическое лицо` },
    )
    .transform((party, ctx) => {
      if (party.type === 'individual') {
        const document = validateDocument(party.documentType, party.documentNumber);
        if (!document.ok) {
          ctx.addIssue({ code: 'custom', message: `${role}: ${document.error}`, path: ['documentNumber'] });
          return z.NEVER;
        }
        if (party.birthDate > new Date().toISOString().slice(0, 10)) {
          ctx.addIssue({ code: 'custom', message: `${role}: дата рождения в будущем`, path: ['birthDate'] });
          return z.NEVER;
        }
        return { ...party, documentNumber: document.value };
      }
      return party;
    });
export type PledgeParty = z.output<ReturnType<typeof partySchema>>;
export type PledgePartyInput = z.input<ReturnType<typeof partySchema>>;

/** Name of a party as one line: «Иванов Иван Иванович» or the company name. */
export const partyName = (party: PledgeParty): string =>
  party.type === 'company'
    ? party.name
    : [party.lastName, party.firstName, party.middleName].filter(Boolean).join(' ');

/** The party's identifier for matching and monitoring: its document, or the company's INN. */
export const partyIdentifier = (party: PledgeParty) =>
  party.type === 'company'
    ? { documentType: 'inn' as const, identifier: party.inn }
    : { documentType: party.documentType, identifier: party.documentNumber };

export const partyDocumentLabel = (party: PledgeParty) =>
  party.type === 'company'
    ? `ИНН ${party.inn}, ОГРН ${party.ogrn}`
    : `${DOCUMENT_TYPES[party.documentType]} ${party.documentNumber}`;

export const PLEDGE_VEHICLES_MAX = 100;

export const pledgeVehicleSchema = z
  .object({
    vin: z.string().nullish(),
    bodyNumber: optionalText('Номер кузова', 50),
    chassisNumber: optionalText('Номер шасси', 50),
    description: optionalText('Описание ТС', 300),
  })
  .transform((vehicle, ctx) => {
    const vinText = vehicle.vin?.trim() ?? '';
    let vin: string | null = null;
    let warning: string | null = null;
    if (vinText !== '') {
      const result = validateVin(vinText);
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', message: result.error, path: ['vin'] });
        return z.NEVER;
      }
      vin = result.value;
      warning = result.warnings[0] ?? null;
    }
    const bodyNumber = vehicle.bodyNumber?.toUpperCase().replace(/\s+/g, '') || null;
    const chassisNumber = vehicle.chassisNumber?.toUpperCase().replace(/\s+/g, '') || null;
    if (!vin && !bodyNumber && !chassisNumber) {
      ctx.addIssue({
        code: 'custom',
        message: 'Транспортное средство: укажите VIN, номер кузова или номер шасси',
        path: ['vin'],
      });
      return z.NEVER;
    }
    return { vin, bodyNumber, chassisNumber, description: vehicle.description, warning };
  });
export type PledgeVehicle = z.output<typeof pledgeVehicleSchema>;
export type PledgeVehicleInput = z.input<typeof pledgeVehicleSchema>;

export const pledgeContractSchema = z
  .object({
    name: optionalText('Договор: наименование', 200),
    number: text('Договор: номер', 100),
    date: dateField('Договор: дата'),
    endDate: optionalDateField('Договор: срок исполнения'),
  })
  .superRefine((contract, ctx) => {
    if (contract.endDate && contract.endDate < contract.date) {
      ctx.addIssue({
        code: 'custom',
        message: 'Договор: срок исполнения раньше даты договора',
        path: ['endDate'],
      });
    }
  });
export type PledgeContract = z.output<typeof pledgeContractSchema>;

/**
 * One notification, as the form sends it and as each file event is checked. Creation puts the
 * vehicles on monitoring; a change or exclusion must name a pledge the registry knows — by its
 * registration number, or by the contract number and a VIN of the pledge.
 */
export const pledgeEventInputSchema = z
  .object({
    kind: pledgeEventKindSchema,
    registrationNumber: z
      .string()
      .nullish()
      .transform((input, ctx) => {
        if (!input || input.trim() === '') {
          return null;
        }
        const result = validateRegistrationNumber(input);
        if (!result.ok) {
          ctx.addIssue({ code: 'custom', message: result.error });
          return z.NEVER;
        }
        return result.value;
      })
      .describe(
        'Регистрационный номер уведомления о возникновении залога (ГГГГ-ННН-НННННН-ННН): для возникновения — если уже известен, для изменения и исключения — номер изменяемого залога',
      ),
    notificationDate: dateField('Дата уведомления').describe('Дата уведомления, ГГГГ-ММ-ДД или ДД.ММ.ГГГГ'),
    pledgor: partySchema('Залогодатель'),
    pledgee: partySchema('Залогодержатель'),
    contract: pledgeContractSchema,
    vehicles: z
      .array(pledgeVehicleSchema)
      .min(1, { error: 'Добавьте хотя бы одно транспортное средство' })
      .max(PLEDGE_VEHICLES_MAX, { error: `Не более ${PLEDGE_VEHICLES_MAX} транспортных средств` }),
  })
  .superRefine((event, ctx) => {
    const today = new Date().toISOString().slice(0, 10);
    if (event.notificationDate > today) {
      ctx.addIssue({ code: 'custom', message: 'Дата уведомления в будущем', path: ['notificationDate'] });
    }
    if (
      event.kind !== 'creation' &&
      !event.registrationNumber &&
      !event.vehicles.some((vehicle) => vehicle.vin)
    ) {
      ctx.addIssue({
        code: 'custom',
        message:
          'Для изменения или исключения укажите регистрационный номер залога или VIN заложенного ТС (вместе с номером договора)',
        path: ['registrationNumber'],
      });
    }
    const seen = new Set<string>();
    event.vehicles.forEach((vehicle, index) => {
      const key = vehicle.vin ?? `${vehicle.bodyNumber}|${vehicle.chassisNumber}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          message: `Транспортное средство ${vehicle.vin ?? ''} указано дважды`.replace('  ', ' '),
          path: ['vehicles', index, 'vin'],
        });
      }
      seen.add(key);
    });
  })
  .meta(
    requestExamples({
      kind: 'creation',
      notificationDate: '2026-03-02',
      pledgor: {
        type: 'individual',
        lastName: 'Иванов',
        firstName: 'Иван',
        middleName: 'Иванович',
        birthDate: '1980-02-01',
        documentType: 'passport_rf',
        documentNumber: '4506 123456',
      },
      pledgee: { type: 'company', name: 'ПАО «Банк»', inn: '7707083893', ogrn: '1027700132195' },
      contract: {
        name: 'Договор залога',
        number: 'ДЗ-2026/123',
        date: '2026-03-02',
        endDate: '2031-03-02',
      },
      vehicles: [{ vin: 'XTA210740P0100001', description: 'LADA Granta, 2023 г.в., белый' }],
    }),
  );
export type PledgeEventInput = z.input<typeof pledgeEventInputSchema>;
export type PledgeEventData = z.output<typeof pledgeEventInputSchema>;

// ─── Registry: events ───────────────────────────────────────────────────────────────────────

const partyOutputSchema = z
  .object({
    type: z.enum(PARTY_TYPES),
    name: z.string().describe('ФИО или наименование'),
    lastName: z.string().optional(),
    firstName: z.string().optional(),
    middleName: z.string().nullable().optional(),
    birthDate: z.string().optional(),
    documentType: partyDocumentTypeSchema.optional(),
    documentNumber: z.string().optional(),
    inn: z.string().optional(),
    ogrn: z.string().optional(),
  })
  .describe(
    'Сторона: физическое лицо (ФИО, дата рождения, документ) или юридическое (наименование, ИНН, ОГРН)',
  );

export const pledgeVehicleOutputSchema = z.object({
  vin: z.string().nullable(),
  bodyNumber: z.string().nullable(),
  chassisNumber: z.string().nullable(),
  description: z.string().nullable(),
});

export const lapseSchema = z
  .object({
    endsOn: z.string().describe('Срок исполнения договора, ГГГГ-ММ-ДД'),
    daysLeft: z.number().int().describe('Дней до окончания срока (0 — сегодня)'),
  })
  .describe(
    `Предупреждение: срок договора зарегистрированного залога истекает в ближайшие ${PLEDGE_LAPSE_DAYS} дн.`,
  );

export const eventRejectionSchema = z.object({
  packageId: z.string().nullable(),
  packageNumber: z.number().int().nullable(),
  reason: z.string().nullable().describe('Причина отказа, как её внесли при отметке отказа'),
  rejectedAt: isoDateTime,
});
export type EventRejection = z.infer<typeof eventRejectionSchema>;

export const pledgeEventSchema = z
  .object({
    id: z.string(),
    kind: pledgeEventKindSchema,
    kindLabel: z.string(),
    form: z.enum(['УЗ1', 'УИ1', 'УП1']).describe('Форма уведомления: УЗ1, УИ1 или УП1'),
    registrationNumber: z.string().nullable().describe('Номер залога, указанный в уведомлении'),
    registeredNumber: z.string().nullable().describe('Номер, присвоенный этому уведомлению при регистрации'),
    notificationDate: z.string().describe('ГГГГ-ММ-ДД'),
    pledgor: partyOutputSchema,
    pledgee: partyOutputSchema,
    contract: z.object({
      name: z.string().nullable(),
      number: z.string(),
      date: z.string(),
      endDate: z.string().nullable(),
    }),
    vehicles: z.array(pledgeVehicleOutputSchema),
    source: z.enum(['form', 'upload']).describe('form — введено вручную; upload — из файла'),
    uploadId: z.string().nullable(),
    rowNumber: z.number().int().nullable().describe('Первая строка события в файле'),
    pledge: z.object({
      id: z.string(),
      status: pledgeStatusSchema,
      statusLabel: z.string(),
      registrationNumber: z.string().nullable(),
    }),
    package: z
      .object({ id: z.string(), number: z.number().int(), name: z.string(), status: packageStatusSchema })
      .nullable(),
    status: eventSubmissionStatusSchema.describe('Статус отправки: статус пакета или new'),
    statusLabel: z.string(),
    lapse: lapseSchema.nullable(),
    lastRejection: eventRejectionSchema
      .nullable()
      .describe('Последний отказ реестра по этому уведомлению (история — в карточке события)'),
    canCorrect: z
      .boolean()
      .describe('Уведомление можно исправить: оно не в пакете или его пакет получил отказ реестра'),
    correctedAt: isoDateTime.nullable().describe('Когда уведомление исправляли в последний раз'),
    notificationId: z
      .string()
      .describe(
        'NotificationId в XML-файле уведомления (GUID): тот же при каждой выгрузке, новый после исправления',
      ),
    registeredAt: isoDateTime
      .nullable()
      .describe('Время регистрации из свидетельства реестра (RegistrationTime)'),
    registryCheck: z
      .object({
        checkedAt: isoDateTime,
        found: z.boolean().describe('true — найдено в реестре; false — пока не найдено'),
      })
      .nullable()
      .describe('Итог проверки по реестру после регистрации'),
    createdBy: z.object({ id: z.string(), fullName: z.string() }).nullable(),
    createdAt: isoDateTime,
  })
  .describe('Уведомление о залоге (событие реестра)');
export type PledgeEvent = z.infer<typeof pledgeEventSchema>;

export const createPledgeEventResponseSchema = z.object({
  event: pledgeEventSchema,
  warnings: z.array(z.string()).describe('Предупреждения (контрольная цифра VIN)'),
  monitoring: z
    .object({ added: z.number().int(), archived: z.number().int() })
    .describe('Сколько объектов поставлено на мониторинг / отправлено в архив'),
});
export type CreatePledgeEventResponse = z.infer<typeof createPledgeEventResponseSchema>;

const csvList = <T extends z.ZodType>(item: T) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) {
        return undefined;
      }
      const parts = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      const parsed: z.output<T>[] = [];
      for (const part of parts) {
        const result = item.safeParse(part);
        if (!result.success) {
          ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? M.format });
          return z.NEVER;
        }
        parsed.push(result.data);
      }
      return parsed.length > 0 ? parsed : undefined;
    });

const isoDateQuery = calendarDateSchema.optional();

export const pledgeEventsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(25),
  kind: csvList(pledgeEventKindSchema).describe('Виды через запятую: creation,change,exclusion'),
  status: csvList(eventSubmissionStatusSchema).describe('Статусы отправки через запятую'),
  pledgeStatus: csvList(pledgeStatusSchema).describe('Состояния залога через запятую'),
  from: isoDateQuery.describe('Дата уведомления с (включительно)'),
  to: isoDateQuery.describe('Дата уведомления по (включительно)'),
  vin: z.string().trim().max(17).optional().describe('VIN или его часть'),
  pledgor: z.string().trim().max(100).optional().describe('Часть ФИО / наименования или номер документа'),
  registrationNumber: z.string().trim().max(30).optional().describe('Регистрационный номер или его часть'),
  packageId: z.uuid({ error: 'Неверный идентификатор пакета' }).optional(),
  lapsing: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe(`true — только залоги, чей срок истекает в ближайшие ${PLEDGE_LAPSE_DAYS} дн.`),
});
export type PledgeEventsQuery = z.input<typeof pledgeEventsQuerySchema>;

export const pledgeEventsResponseSchema = z.object({
  items: z.array(pledgeEventSchema),
  total: z.number().int(),
});
export type PledgeEventsResponse = z.infer<typeof pledgeEventsResponseSchema>;

export const packageHistoryEntrySchema = z.object({
  action: z.string().describe('created, approved, returned, sent, registered, rejected, events_added…'),
  actionLabel: z.string(),
  fromStatus: packageStatusSchema.nullable(),
  toStatus: packageStatusSchema,
  comment: z.string().nullable(),
  user: z.object({ id: z.string(), fullName: z.string() }).nullable(),
  createdAt: isoDateTime,
});
export type PackageHistoryEntry = z.infer<typeof packageHistoryEntrySchema>;

export const pledgeEventDetailSchema = pledgeEventSchema.extend({
  pledgeHistory: z
    .array(
      pledgeEventSchema.pick({
        id: true,
        kind: true,
        kindLabel: true,
        notificationDate: true,
        status: true,
        statusLabel: true,
        createdAt: true,
      }),
    )
    .describe('Все уведомления этого залога по дате'),
  packageHistory: z.array(packageHistoryEntrySchema).describe('История пакета события'),
  rejections: z
    .array(
      eventRejectionSchema.extend({
        rejectedBy: z.object({ id: z.string(), fullName: z.string() }).nullable(),
      }),
    )
    .describe('Все отказы реестра по этому уведомлению, старые сверху'),
});
export type PledgeEventDetail = z.infer<typeof pledgeEventDetailSchema>;

// ─── Packages ───────────────────────────────────────────────────────────────────────────────

export const pledgePackageSchema = z
  .object({
    id: z.string(),
    number: z.number().int().describe('Номер пакета в организации'),
    name: z.string(),
    origin: z.enum(['upload', 'manual']).describe('upload — создан загрузкой файла; manual — вручную'),
    uploadId: z.string().nullable(),
    status: packageStatusSchema,
    statusLabel: z.string(),
    eventsCount: z.number().int(),
    registeredCount: z.number().int().describe('Уведомлений с присвоенным регистрационным номером'),
    kinds: z.record(z.string(), z.number().int()).describe('Сколько уведомлений каждого вида'),
    createdBy: z.object({ id: z.string(), fullName: z.string() }).nullable(),
    approvedBy: z.object({ id: z.string(), fullName: z.string() }).nullable(),
    approvedAt: isoDateTime.nullable(),
    sentAt: isoDateTime.nullable(),
    registeredAt: isoDateTime.nullable(),
    rejectionReason: z.string().nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    canApprove: z
      .boolean()
      .describe(
        'Может ли текущий пользователь одобрить пакет: черновик с событиями, роль admin/analyst, и пользователь не создавал пакет, не вносил его события и не менял его состав (maker-checker)',
      ),
    approveBlockedReason: z
      .string()
      .nullable()
      .describe('Почему текущий пользователь не может одобрить пакет (по-русски); null, если может'),
  })
  .describe('Пакет уведомлений для отправки в реестр');
export type PledgePackage = z.infer<typeof pledgePackageSchema>;

export const pledgePackageDetailSchema = pledgePackageSchema.extend({
  history: z.array(packageHistoryEntrySchema),
});
export type PledgePackageDetail = z.infer<typeof pledgePackageDetailSchema>;

export const pledgePackagesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(25),
  status: csvList(packageStatusSchema).describe('Статусы через запятую'),
});
export type PledgePackagesQuery = z.input<typeof pledgePackagesQuerySchema>;
export const pledgePackagesResponseSchema = z.object({
  items: z.array(pledgePackageSchema),
  total: z.number().int(),
});
export type PledgePackagesResponse = z.infer<typeof pledgePackagesResponseSchema>;

const eventIdsSchema = z
  .array(z.uuid({ error: 'Неверный идентификатор события' }))
  .min(1, { error: 'Выберите хотя бы одно событие' })
  .max(5000, { error: 'Не более 5000 событий за раз' });

export const createPledgePackageBodySchema = z
  .object({
    name: z
      .string()
      .trim()
      .max(200, { error: M.maxLength(200) })
      .optional()
      .describe('Название; пусто — «Пакет № N»'),
    eventIds: eventIdsSchema.describe('События не из другого пакета'),
  })
  .meta(
    requestExamples({ name: 'Уведомления за 2 марта', eventIds: ['0b7a6f2e-3c1d-4e5f-9a8b-7c6d5e4f3a2b'] }),
  );
export type CreatePledgePackageBody = z.input<typeof createPledgePackageBodySchema>;

export const packageEventsBodySchema = z.object({ eventIds: eventIdsSchema });
export type PackageEventsBody = z.input<typeof packageEventsBodySchema>;

export const PACKAGE_ACTIONS = ['approve', 'return', 'send', 'register', 'reject'] as const;
export const packageActionSchema = z.enum(PACKAGE_ACTIONS, {
  error: 'Действие: approve, return, send, register или reject',
});
export type PackageAction = z.infer<typeof packageActionSchema>;
export const PACKAGE_ACTION_LABELS: Record<
  PackageAction | 'created' | 'events_added' | 'events_removed' | 'numbers' | 'registry_results',
  string
> = {
  created: 'Пакет создан',
  approve: 'Одобрен',
  return: 'Возвращён в черновик',
  send: 'Отправлен в реестр',
  register: 'Зарегистрирован',
  reject: 'Отклонён реестром',
  events_added: 'Добавлены события',
  events_removed: 'Убраны события',
  numbers: 'Внесены регистрационные номера',
  registry_results: 'Внесены результаты реестра',
};

export const packageTransitionBodySchema = z.object({
  action: packageActionSchema.describe(
    'approve: draft → ready (второй сотрудник, не автор); return: ready → draft; send: ready → sent; register: sent → registered; reject: sent → rejected',
  ),
  comment: z
    .string()
    .trim()
    .max(1000, { error: M.maxLength(1000) })
    .optional()
    .describe('Комментарий; для reject — причина (обязательна)'),
});
export type PackageTransitionBody = z.input<typeof packageTransitionBodySchema>;

export const registrationNumbersBodySchema = z.object({
  items: z
    .array(
      z.object({
        eventId: z.uuid({ error: 'Неверный идентификатор события' }),
        registeredNumber: z.string().transform((input, ctx) => {
          const result = validateRegistrationNumber(input, { notice: true });
          if (!result.ok) {
            ctx.addIssue({ code: 'custom', message: result.error });
            return z.NEVER;
          }
          return result.value;
        }),
      }),
    )
    .min(1, { error: 'Укажите хотя бы один номер' })
    .max(5000),
});
export type RegistrationNumbersBody = z.input<typeof registrationNumbersBodySchema>;

export const registrationNumbersResponseSchema = z.object({
  updated: z.number().int(),
  rejected: z
    .array(z.object({ row: z.number().int(), message: z.string() }))
    .describe('Строки файла, которые не приняты'),
  package: pledgePackageSchema,
});
export type RegistrationNumbersResponse = z.infer<typeof registrationNumbersResponseSchema>;

export const PACKAGE_EXPORT_FORMATS = ['json', 'xlsx', 'xml'] as const;
export const packageExportQuerySchema = z.object({
  format: z
    .enum(PACKAGE_EXPORT_FORMATS, { error: 'Формат: json, xlsx или xml' })
    .default('json')
    .describe(
      'xml — ZIP с файлом <NotificationId>.xml на каждое уведомление в формате реестра 2.3 (одобренный пакет, каждое уведомление проверено по правилам формата); json, xlsx — для людей',
    ),
});
