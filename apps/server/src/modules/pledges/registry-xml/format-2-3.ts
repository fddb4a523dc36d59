/**
 * The notary registry's XML format 2.3 («PledgeNotificationToNotary»), as data: every element the
 * product writes, in the format's document order, whether it is required or repeated, and the rule
 * its text follows. The writer, the validator and the reader all walk this one tree, so when a bank
 * supplies the official XSD a test can check it against this module element by element.
 *
 * Source (docs/pledges.md, providers.md §1.4): the classes of a lender's client generated from the
 * format (names and order high confidence); what the product does not hold (addresses, attorneys,
 * other property) is left out, and an optional element with no value is never written empty.
 */

export const REGISTRY_NAMESPACE = 'http://fciit.ru/eisn/ruzdi/types/2.3';
export const REGISTRY_FORMAT_VERSION = '2.3';

export type TextType = 'text' | 'date' | 'datetime' | 'boolean' | 'guid' | 'digits';

export interface TextRule {
  type: TextType;
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** What the pattern means, in Russian, for the message when it fails. */
  patternRule?: string;
}

export interface ElementSpec {
  name: string;
  /** Russian name of the field, for messages. */
  label: string;
  required: boolean;
  /** Several may follow each other (a list such as Pledgor inside Pledgors). */
  repeated?: boolean;
  /** A leaf's rule; elements with children have none. */
  text?: TextRule;
  children?: readonly ElementSpec[];
  /** The children are alternatives: exactly one of them is present. */
  choice?: boolean;
  /** At least one of these children is present (VehicleProperty's identifiers). */
  oneOf?: readonly string[];
  /** Attributes written on the element, fixed by the format. */
  attributes?: Readonly<Record<string, string>>;
}

const leaf = (name: string, label: string, required: boolean, text: TextRule): ElementSpec => ({
  name,
  label,
  required,
  text,
});

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** VIN as the format takes it: 11 or 17 Latin letters and digits without I, O, Q. */
export const VIN_PATTERN = /^(?:[0-9A-HJ-NPR-Z]{11}|[0-9A-HJ-NPR-Z]{17})$/;
/** The creation's number a change or exclusion refers to: ГГГГ-ННН-НННННН-ННН. */
export const CREATION_NUMBER_PATTERN = /^\d{4}-\d{3}-\d{6}-\d{3}$/;

const ogrn = (name: string) =>
  leaf(name, 'ОГРН', true, {
    type: 'digits',
    pattern: /^(?:\d{13}|\d{15})$/,
    patternRule: '13 цифр (ОГРНИП — 15)',
  });
const inn = (name: string) =>
  leaf(name, 'ИНН', true, { type: 'digits', pattern: /^(?:\d{10}|\d{12})$/, patternRule: '10 или 12 цифр' });
const nameFull = leaf('NameFull', 'полное наименование', true, { type: 'text', min: 1, max: 4000 });
const email = leaf('Email', 'e-mail', false, { type: 'text', min: 3, max: 255 });

const personName: ElementSpec = {
  name: 'Name',
  label: 'ФИО',
  required: true,
  children: [
    leaf('Last', 'фамилия', true, { type: 'text', min: 1, max: 100 }),
    leaf('First', 'имя', true, { type: 'text', min: 1, max: 100 }),
    leaf('Middle', 'отчество', false, { type: 'text', min: 1, max: 100 }),
  ],
};

const privatePerson: ElementSpec = {
  name: 'PrivatePerson',
  label: 'физическое лицо',
  required: false,
  children: [
    personName,
    leaf('BirthDate', 'дата рождения', true, { type: 'date' }),
    {
      name: 'PersonDocument',
      label: 'документ',
      required: true,
      children: [
        leaf('Code', 'код вида документа', true, {
          type: 'digits',
          min: 1,
          max: 3,
          pattern: /^\d{1,3}$/,
          patternRule: 'код из справочника видов документов',
        }),
        leaf('Name', 'вид документа', true, { type: 'text', min: 1, max: 255 }),
        leaf('SeriesNumber', 'серия и номер', true, { type: 'text', min: 1, max: 25 }),
      ],
    },
    email,
  ],
};

const russianOrganization: ElementSpec = {
  name: 'RussianOrganization',
  label: 'российское юридическое лицо',
  required: false,
  children: [nameFull, ogrn('OGRN'), inn('INN'), email],
};

const foreignOrganization: ElementSpec = {
  name: 'ForeignOrganization',
  label: 'иностранное юридическое лицо',
  required: false,
  children: [nameFull, leaf('RegNum', 'регистрационный номер', false, { type: 'text', min: 1, max: 100 })],
};

const organization: ElementSpec = {
  name: 'Organization',
  label: 'юридическое лицо',
  required: false,
  choice: true,
  children: [russianOrganization, foreignOrganization],
};

const party = (name: string, label: string, extra: readonly ElementSpec[] = []): ElementSpec => ({
  name,
  label,
  required: true,
  repeated: true,
  choice: true,
  children: [privatePerson, organization, ...extra],
});

const vehicleProperty: ElementSpec = {
  name: 'VehicleProperty',
  label: 'транспортное средство',
  required: true,
  oneOf: ['VIN', 'PIN', 'ChassisNumber', 'BodyNumber'],
  children: [
    leaf('VIN', 'VIN', false, {
      type: 'text',
      pattern: VIN_PATTERN,
      patternRule: '11 или 17 латинских букв и цифр, без I, O, Q',
    }),
    leaf('PIN', 'PIN', false, { type: 'text', min: 1, max: 25 }),
    leaf('ChassisNumber', 'номер шасси', false, { type: 'text', min: 1, max: 25 }),
    leaf('BodyNumber', 'номер кузова', false, { type: 'text', min: 1, max: 20 }),
    leaf('Description', 'описание', true, { type: 'text', min: 1, max: 4000 }),
  ],
};

const personalProperties: ElementSpec = {
  name: 'PersonalProperties',
  label: 'имущество',
  required: true,
  children: [
    {
      name: 'PersonalProperty',
      label: 'имущество',
      required: true,
      repeated: true,
      children: [vehicleProperty],
    },
  ],
};

const pledgors: ElementSpec = {
  name: 'Pledgors',
  label: 'залогодатели',
  required: true,
  children: [party('Pledgor', 'залогодатель')],
};

/** The pledgees' list is `Pledgee` inside `Pledgee`, as the format names it. */
const pledgees: ElementSpec = {
  name: 'Pledgee',
  label: 'залогодержатели',
  required: true,
  children: [
    {
      ...party('Pledgee', 'залогодержатель'),
      choice: false,
      oneOf: ['PrivatePerson', 'Organization'],
      children: [
        privatePerson,
        organization,
        leaf('PublicationDisclaimer', 'отказ от публикации сведений', false, { type: 'boolean' }),
      ],
    },
  ],
};

const pledgeContract: ElementSpec = {
  name: 'PledgeContract',
  label: 'договор залога',
  required: false,
  children: [
    leaf('Name', 'наименование', false, { type: 'text', min: 1, max: 4000 }),
    leaf('Date', 'дата', true, { type: 'date' }),
    leaf('Number', 'номер', true, { type: 'text', min: 1, max: 60 }),
    leaf('TermOfContract', 'срок исполнения', false, { type: 'date' }),
  ],
};

const applicant: ElementSpec = {
  name: 'NotificationApplicant',
  label: 'заявитель',
  required: true,
  oneOf: ['Organization', 'PrivatePerson'],
  children: [
    leaf('Role', 'роль заявителя', true, {
      type: 'digits',
      pattern: /^[12]$/,
      patternRule: '1 — залогодатель, 2 — залогодержатель',
    }),
    {
      name: 'Organization',
      label: 'организация',
      required: false,
      children: [nameFull, ogrn('URN'), inn('UINN'), email],
    },
    {
      name: 'PrivatePerson',
      label: 'физическое лицо',
      required: false,
      children: [personName, email],
    },
  ],
};

const creationReference = leaf('CreationReferenceNumber', 'номер уведомления о возникновении', true, {
  type: 'text',
  pattern: CREATION_NUMBER_PATTERN,
  patternRule: 'формат ГГГГ-ННН-НННННН-ННН',
});

const optional = (spec: ElementSpec): ElementSpec => ({ ...spec, required: false });

/** The three forms the product writes, by element name. */
export const FORMS = {
  FormUZ1: {
    name: 'FormUZ1',
    label: 'уведомление о возникновении залога (УЗ1)',
    required: false,
    children: [personalProperties, pledgors, pledgees, pledgeContract, applicant],
  },
  FormUI1: {
    name: 'FormUI1',
    label: 'уведомление об изменении залога (УИ1)',
    required: false,
    children: [
      creationReference,
      optional(personalProperties),
      optional(pledgors),
      optional(pledgees),
      pledgeContract,
      applicant,
    ],
  },
  FormUP1: {
    name: 'FormUP1',
    label: 'уведомление об исключении сведений о залоге (УП1)',
    required: false,
    children: [creationReference, applicant],
  },
} as const satisfies Record<string, ElementSpec>;
export type FormName = keyof typeof FORMS;

/** The notification file's root. */
export const NOTIFICATION: ElementSpec = {
  name: 'PledgeNotificationToNotary',
  label: 'уведомление',
  required: true,
  attributes: { version: REGISTRY_FORMAT_VERSION },
  children: [
    leaf('NotificationId', 'идентификатор уведомления', true, {
      type: 'guid',
      pattern: GUID,
      patternRule: 'GUID',
    }),
    {
      name: 'NotificationData',
      label: 'данные уведомления',
      required: true,
      attributes: { version: REGISTRY_FORMAT_VERSION },
      choice: true,
      children: [FORMS.FormUZ1, FORMS.FormUI1, FORMS.FormUP1],
    },
  ],
};

/**
 * Kinds of identity documents and their codes in the format's list. Code 21 («Паспорт», a citizen of
 * Russia's passport) is what the lender's client writes; the list itself was not found, so a kind
 * without a known code is refused before export rather than guessed.
 */
export const PERSON_DOCUMENT_CODES: Record<string, { code: string | null; name: string }> = {
  passport_rf: { code: '21', name: 'Паспорт гражданина Российской Федерации' },
  driving_licence: { code: null, name: 'Водительское удостоверение' },
};

/** The result documents the registry returns (read by local name, whatever their namespace). */
export const RESULT_ELEMENTS = {
  certificate: {
    name: 'RegistrationCertificate',
    notificationId: 'NotificationId',
    number: 'NotificationReferenceNumber',
    time: 'RegistrationTime',
  },
  rejection: { name: 'RegistrationRejectMessage', notificationId: 'NotificationId', reason: 'RejectReason' },
} as const;
