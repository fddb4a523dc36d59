/**
 * The registry's answers as it returns them (a ZIP of XML files or one XML): registration
 * certificates and rejections, read by local name whatever their namespace. Reading only: every
 * problem is collected with the file it is in, and nothing here touches the database.
 */
import { validateRegistrationNumber } from '@pledgewatch/contract';
import { RESULT_ELEMENTS } from './format-2-3.ts';
import { findAll, parseXml, textOf, XmlRefusal } from './safe-xml.ts';
import { checkText } from './xml-tree.ts';
import { isZip, readZip } from './zip.ts';

export interface RegistryCertificate {
  file: string;
  notificationId: string;
  number: string;
  registeredAt: string;
}

export interface RegistryRejection {
  file: string;
  notificationId: string;
  reason: string;
}

export interface RegistryResults {
  certificates: RegistryCertificate[];
  rejections: RegistryRejection[];
  /** Every reason the file cannot be applied, each naming its file; empty when all is well. */
  problems: { file: string; message: string }[];
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readDocument(file: string, text: string, results: RegistryResults): void {
  const problem = (message: string) => results.problems.push({ file, message });
  let root: ReturnType<typeof parseXml>;
  try {
    root = parseXml(text);
  } catch (error) {
    if (error instanceof XmlRefusal) {
      problem(error.message);
      return;
    }
    throw error;
  }
  const { certificate, rejection } = RESULT_ELEMENTS;
  const certificates = findAll(root, certificate.name);
  const rejections = findAll(root, rejection.name);
  if (certificates.length === 0 && rejections.length === 0) {
    problem(`нет ни свидетельства о регистрации (${certificate.name}), ни отказа (${rejection.name})`);
    return;
  }
  for (const node of certificates) {
    const id = textOf(node, certificate.notificationId) ?? '';
    const numberText = textOf(node, certificate.number) ?? '';
    const time = textOf(node, certificate.time) ?? '';
    if (!GUID.test(id)) {
      problem(`свидетельство: NotificationId «${id.slice(0, 60)}» — не GUID`);
      continue;
    }
    const number = validateRegistrationNumber(numberText, { notice: true });
    if (!number.ok) {
      problem(`свидетельство для ${id}: номер «${numberText.slice(0, 60)}» — ${number.error}`);
      continue;
    }
    const timeProblem = checkText({ type: 'datetime' }, time);
    if (timeProblem) {
      problem(`свидетельство для ${id}: RegistrationTime «${time.slice(0, 40)}» — ${timeProblem}`);
      continue;
    }
    results.certificates.push({
      file,
      notificationId: id.toLowerCase(),
      number: number.value,
      // The registry writes its local (Moscow) time without an offset.
      registeredAt: /[zZ]|[+-]\d{2}:?\d{2}$/.test(time) ? time : `${time}+03:00`,
    });
  }
  for (const node of rejections) {
    const id = textOf(node, rejection.notificationId) ?? '';
    if (!GUID.test(id)) {
      problem(`отказ: NotificationId «${id.slice(0, 60)}» — не GUID`);
      continue;
    }
    results.rejections.push({
      file,
      notificationId: id.toLowerCase(),
      reason: (textOf(node, rejection.reason) ?? '').slice(0, 4000) || 'Причина не указана',
    });
  }
}

/** Reads the uploaded results: a ZIP of XML files (signatures and other entries skipped) or one XML. */
export async function readRegistryResults(fileName: string, data: Buffer): Promise<RegistryResults> {
  const results: RegistryResults = { certificates: [], rejections: [], problems: [] };
  if (isZip(data)) {
    let entries: { name: string; data: Buffer }[];
    try {
      entries = await readZip(data, (name) => name.toLowerCase().endsWith('.xml'));
    } catch (error) {
      if (error instanceof XmlRefusal) {
        results.problems.push({ file: fileName, message: error.message });
        return results;
      }
      throw error;
    }
    if (entries.length === 0) {
      results.problems.push({ file: fileName, message: 'в архиве нет ни одного файла XML' });
    }
    for (const entry of entries) {
      readDocument(`${fileName} › ${entry.name}`, entry.data.toString('utf8'), results);
    }
    return results;
  }
  readDocument(fileName, data.toString('utf8'), results);
  return results;
}
