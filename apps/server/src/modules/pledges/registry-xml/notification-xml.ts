/**
 * One notification as the registry's XML (format 2.3): the event mapped onto the format's tree,
 * checked against its rules, written, and read back (the round trip the tests hold it to).
 */
import type { PledgeEvent } from '@pledgewatch/contract';
import {
  FORMS,
  type FormName,
  NOTIFICATION,
  PERSON_DOCUMENT_CODES,
  REGISTRY_NAMESPACE,
} from './format-2-3.ts';
import { parseXml } from './safe-xml.ts';
import { type FormatIssue, readElement, validateElement, writeElement, type XmlObject } from './xml-tree.ts';

export const FORM_OF: Record<PledgeEvent['kind'], FormName> = {
  creation: 'FormUZ1',
  change: 'FormUI1',
  exclusion: 'FormUP1',
};

type Party = PledgeEvent['pledgor'];

/** The document's series and number as the format takes it: a passport's ten digits without spaces. */
const seriesNumber = (party: Party) =>
  party.documentType === 'passport_rf'
    ? (party.documentNumber ?? '').replace(/\s+/g, '')
    : (party.documentNumber ?? '');

const personName = (party: Party): XmlObject => ({
  Last: party.lastName ?? '',
  First: party.firstName ?? '',
  Middle: party.middleName ?? undefined,
});

function partyValue(party: Party): XmlObject {
  if (party.type === 'company') {
    return {
      Organization: { RussianOrganization: { NameFull: party.name, OGRN: party.ogrn, INN: party.inn } },
    };
  }
  const document = PERSON_DOCUMENT_CODES[party.documentType ?? ''];
  return {
    PrivatePerson: {
      Name: personName(party),
      BirthDate: party.birthDate ?? '',
      PersonDocument: {
        Code: document?.code ?? undefined,
        Name: document?.name ?? '',
        SeriesNumber: seriesNumber(party),
      },
    },
  };
}

/** The applicant is the pledgee (role 2): the lender files its own notifications. */
function applicantValue(pledgee: Party): XmlObject {
  return pledgee.type === 'company'
    ? { Role: '2', Organization: { NameFull: pledgee.name, URN: pledgee.ogrn, UINN: pledgee.inn } }
    : { Role: '2', PrivatePerson: { Name: personName(pledgee) } };
}

/** The number of the creation a change or exclusion refers to. */
export const creationReferenceOf = (event: PledgeEvent) =>
  event.registrationNumber ?? event.pledge.registrationNumber ?? undefined;

/** The event as the value of the format's tree (root PledgeNotificationToNotary). */
export function notificationValue(event: PledgeEvent): XmlObject {
  const properties = {
    PersonalProperty: event.vehicles.map((vehicle) => ({
      VehicleProperty: {
        VIN: vehicle.vin ?? undefined,
        ChassisNumber: vehicle.chassisNumber ?? undefined,
        BodyNumber: vehicle.bodyNumber ?? undefined,
        Description: vehicle.description ?? undefined,
      },
    })),
  };
  const parties = {
    PersonalProperties: properties,
    Pledgors: { Pledgor: [partyValue(event.pledgor)] },
    Pledgee: { Pledgee: [{ ...partyValue(event.pledgee), PublicationDisclaimer: 'false' }] },
    PledgeContract: {
      Name: event.contract.name ?? undefined,
      Date: event.contract.date,
      Number: event.contract.number,
      TermOfContract: event.contract.endDate ?? undefined,
    },
  };
  const applicant = { NotificationApplicant: applicantValue(event.pledgee) };
  const form: XmlObject =
    event.kind === 'creation'
      ? { ...parties, ...applicant }
      : event.kind === 'change'
        ? { CreationReferenceNumber: creationReferenceOf(event), ...parties, ...applicant }
        : { CreationReferenceNumber: creationReferenceOf(event), ...applicant };
  return { NotificationId: event.notificationId, NotificationData: { [FORM_OF[event.kind]]: form } };
}

/** What the product knows before the format's rules apply: a document kind without a code. */
function knownGaps(event: PledgeEvent): FormatIssue[] {
  const issues: FormatIssue[] = [];
  const formPath = `PledgeNotificationToNotary/NotificationData/${FORM_OF[event.kind]}`;
  const parties: [Party, string, string][] =
    event.kind === 'exclusion'
      ? []
      : [
          [event.pledgor, 'залогодатель', 'Pledgors/Pledgor[1]'],
          [event.pledgee, 'залогодержатель', 'Pledgee/Pledgee[1]'],
        ];
  for (const [party, role, path] of parties) {
    if (party.type === 'individual' && !PERSON_DOCUMENT_CODES[party.documentType ?? '']?.code) {
      issues.push({
        path: `${formPath}/${path}/PrivatePerson/PersonDocument/Code`,
        field: `${role} → документ`,
        message: `для вида документа «${PERSON_DOCUMENT_CODES[party.documentType ?? '']?.name ?? party.documentType}» код формата реестра не известен: укажите паспорт гражданина РФ`,
      });
    }
  }
  if (event.kind !== 'creation' && !creationReferenceOf(event)) {
    issues.push({
      path: `${formPath}/CreationReferenceNumber`,
      field: 'номер уведомления о возникновении',
      message: 'номер залога ещё не известен: сначала получите номер уведомления о возникновении (УЗ1)',
    });
  }
  return issues;
}

/** Every rule of the format the notification breaks, each with where and why (Russian). */
export function validateNotification(event: PledgeEvent): FormatIssue[] {
  const gaps = knownGaps(event);
  const covered = new Set(gaps.map((gap) => gap.path));
  const issues = validateElement(NOTIFICATION, notificationValue(event))
    .filter((i) => !covered.has(i.path))
    // «уведомление → данные уведомления → <форма> → залогодатели → …»: the message names the form already.
    .map((i) => ({ ...i, field: i.field.split(' → ').slice(3).join(' → ') || i.field }));
  return [...gaps, ...issues];
}

/** The notification's file: UTF-8 XML with the format's namespace and version. */
export function notificationXml(event: PledgeEvent): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${writeElement(NOTIFICATION, notificationValue(event), '', REGISTRY_NAMESPACE)}\n`;
}

/** A notification file read back by the format's tree: its form and the value the writer took. */
export function readNotificationXml(xml: string): {
  form: FormName;
  value: XmlObject;
  version: string | null;
} {
  const root = parseXml(xml);
  const value = readElement(NOTIFICATION, root) as XmlObject;
  const data = value.NotificationData as XmlObject | undefined;
  const form = (Object.keys(FORMS) as FormName[]).find((name) => data?.[name] !== undefined);
  if (!form) {
    throw new Error('В файле нет формы уведомления');
  }
  const version = /<PledgeNotificationToNotary[^>]*\sversion="([^"]+)"/.exec(xml)?.[1] ?? null;
  return { form, value, version };
}
