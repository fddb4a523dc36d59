/** Registration numbers of a sent package's notifications: typed in, or read from the registry's file. */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type RegistrationNumbersResponse, validateRegistrationNumber } from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { recordAudit } from '../audit/index.ts';
import { isUploadFileError, normaliseHeader, openRowSource } from '../uploads/index.ts';
import { listPackageEvents } from './pledge-events.queries.ts';
import { addPackageHistory, getPackage } from './pledge-packages.queries.ts';
import { requirePackage, toPackage, wrongStatus } from './pledge-packages.service.ts';
import { findNumberOwners, setRegisteredNumbers } from './pledge-registry.queries.ts';

/**
 * Registration numbers the registry gave the package's notifications (sent or registered packages).
 * A creation's number becomes its pledge's number, which puts the pledge in the public registry
 * that the `pledges` check source reads.
 */
export async function saveRegistrationNumbers(options: {
  db: pg.Pool;
  auth: AuthContext;
  packageId: string;
  items: { eventId: string; registeredNumber: string; row?: number }[];
  rejected?: { row: number; message: string }[];
}): Promise<RegistrationNumbersResponse> {
  const { auth } = options;
  const rejected = [...(options.rejected ?? [])];
  return withTransaction(options.db, async (tx) => {
    const row = await requirePackage(tx, auth, options.packageId, { forUpdate: true });
    if (row.status !== 'sent' && row.status !== 'registered') {
      throw wrongStatus(
        row,
        'Регистрационные номера вносятся для отправленного или зарегистрированного пакета',
      );
    }
    const seen = new Map<string, number>();
    const items: typeof options.items = [];
    options.items.forEach((item, index) => {
      const rowNumber = item.row ?? index + 1;
      const first = seen.get(item.registeredNumber);
      if (first !== undefined) {
        rejected.push({
          row: rowNumber,
          message: `Номер ${item.registeredNumber} уже указан в строке ${first}`,
        });
        return;
      }
      seen.set(item.registeredNumber, rowNumber);
      items.push({ ...item, eventId: item.eventId.toLowerCase(), row: rowNumber });
    });
    const owners = await findNumberOwners(
      tx,
      auth.organisationId,
      items.map((item) => item.registeredNumber),
    );
    const events = new Map(
      (await listPackageEvents(tx, auth.organisationId, row.id)).map((event) => [event.id, event]),
    );
    const accepted = items.filter((item) => {
      const event = events.get(item.eventId);
      if (!event) {
        rejected.push({ row: item.row!, message: 'Уведомление не найдено в этом пакете' });
        return false;
      }
      if (event.kind === 'creation' && item.registeredNumber.includes('/')) {
        rejected.push({
          row: item.row!,
          message: `Номер ${item.registeredNumber}: у уведомления о возникновении (УЗ1) номер без «/N» — ГГГГ-ННН-НННННН-ННН`,
        });
        return false;
      }
      const owner = owners.find((o) => o.registration_number === item.registeredNumber);
      if (event.kind === 'creation' && owner && owner.pledge_id !== event.pledge_id) {
        rejected.push({
          row: item.row!,
          message: `Номер ${item.registeredNumber} уже присвоен другому залогу организации`,
        });
        return false;
      }
      return true;
    });
    const { updated } =
      accepted.length > 0
        ? await setRegisteredNumbers(tx, auth.organisationId, row.id, accepted)
        : { updated: 0 };
    if (updated > 0) {
      await addPackageHistory(tx, {
        packageId: row.id,
        action: 'numbers',
        fromStatus: row.status,
        toStatus: row.status,
        comment: `Номеров: ${updated}`,
        userId: auth.userId,
      });
      await recordAudit(tx, {
        organisationId: auth.organisationId,
        userId: auth.userId,
        action: 'pledge_package.registration_numbers',
        entity: 'pledge_package',
        entityId: row.id,
        details: { updated },
      });
    }
    rejected.sort((a, b) => a.row - b.row);
    const fresh = (await getPackage(tx, auth.organisationId, row.id))!;
    return { updated, rejected, package: toPackage(fresh, auth) };
  });
}

const ID_HEADERS = ['id уведомления', 'id события', 'id', 'идентификатор', 'идентификатор уведомления'];
const NUMBER_HEADERS = [
  'регистрационный номер',
  'присвоенный номер',
  'номер регистрации',
  'рег номер',
  'registered number',
];

/**
 * Registration numbers from a file (CSV or XLSX, as the package's XLSX export lays it out): the
 * columns «ID уведомления» and «Присвоенный номер». Bad rows are reported, good rows are saved.
 */
export async function importRegistrationNumbers(options: {
  db: pg.Pool;
  auth: AuthContext;
  config: Pick<AppConfig, 'dataDir' | 'uploadMaxUnzippedBytes'>;
  packageId: string;
  file: Readable;
}): Promise<RegistrationNumbersResponse> {
  const dir = path.join(options.config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const filePath = path.join(dir, `numbers-${randomUUID()}`);
  const items: { eventId: string; registeredNumber: string; row: number }[] = [];
  const rejected: { row: number; message: string }[] = [];
  try {
    await pipeline(options.file, createWriteStream(filePath));
    if ((options.file as Readable & { truncated?: boolean }).truncated) {
      throw new AppError('UPLOAD_TOO_LARGE');
    }
    const source = await openRowSource(filePath, { maxUnzippedBytes: options.config.uploadMaxUnzippedBytes });
    try {
      let idIndex = -1;
      let numberIndex = -1;
      for await (const row of source.rows()) {
        if (row.values.every((value) => value.trim() === '')) {
          continue;
        }
        if (idIndex < 0) {
          const headers = row.values.map(normaliseHeader);
          idIndex = headers.findIndex((h) => ID_HEADERS.includes(h));
          numberIndex = headers.findIndex((h) => NUMBER_HEADERS.includes(h));
          if (idIndex < 0 || numberIndex < 0) {
            throw new AppError('UPLOAD_INVALID_FILE', {
              message:
                'В первой строке файла нужны столбцы «ID уведомления» и «Присвоенный номер» (как в выгрузке пакета XLSX)',
            });
          }
          continue;
        }
        const id = (row.values[idIndex] ?? '').trim();
        const numberText = (row.values[numberIndex] ?? '').trim();
        if (numberText === '') {
          continue;
        }
        if (!/^[0-9a-f-]{36}$/i.test(id)) {
          rejected.push({ row: row.rowNumber, message: 'ID уведомления: неверный идентификатор' });
          continue;
        }
        const number = validateRegistrationNumber(numberText, { notice: true });
        if (!number.ok) {
          rejected.push({ row: row.rowNumber, message: number.error });
          continue;
        }
        items.push({ eventId: id, registeredNumber: number.value, row: row.rowNumber });
      }
    } finally {
      await source.close();
    }
  } catch (error) {
    if (isUploadFileError(error)) {
      throw new AppError('UPLOAD_INVALID_FILE', { message: error.message });
    }
    throw error;
  } finally {
    await rm(filePath, { force: true });
  }
  if (items.length === 0 && rejected.length === 0) {
    throw new AppError('UPLOAD_INVALID_FILE', { message: 'В файле нет ни одного регистрационного номера' });
  }
  return saveRegistrationNumbers({ ...options, items, rejected });
}
