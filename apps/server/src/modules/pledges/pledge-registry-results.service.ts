/**
 * The registry's results for a sent package (`POST /pledges/packages/{id}/registry-results`): its
 * certificates give the notifications their numbers, its rejections show on the notifications they
 * name. All or nothing: any problem in any file (a broken or hostile file, an unknown notification,
 * one of another package, a number in the wrong format) refuses the whole upload, naming the file.
 */
import type { Readable } from 'node:stream';
import type { RegistrationNumbersResponse } from '@pledgewatch/contract';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { recordAudit } from '../audit/index.ts';
import { addPackageHistory, getPackage } from './pledge-packages.queries.ts';
import { requirePackage, settlePackage, toPackage, wrongStatus } from './pledge-packages.service.ts';
import {
  findEventsByNotificationIds,
  recordRegistryRejections,
  setRegisteredNumbers,
} from './pledge-registry.queries.ts';
import { readRegistryResults } from './registry-xml/registry-results.ts';

/** The upload in memory (the multipart limit caps it); a truncated file is refused. */
async function readAll(file: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file as AsyncIterable<Buffer>) {
    chunks.push(chunk);
  }
  if ((file as Readable & { truncated?: boolean }).truncated) {
    throw new AppError('UPLOAD_TOO_LARGE');
  }
  return Buffer.concat(chunks);
}

const refuse = (problems: { file: string; message: string }[]) =>
  new AppError('PLEDGE_RESULTS_INVALID', {
    message: `Файл результатов не принят, ничего не внесено: ${problems[0]!.file} — ${problems[0]!.message}${problems.length > 1 ? ` (и ещё ошибок: ${problems.length - 1})` : ''}`,
    fieldErrors: problems.slice(0, 200).map((p) => ({ field: p.file, message: `${p.file}: ${p.message}` })),
  });

export async function importRegistryResults(options: {
  db: pg.Pool;
  queue: JobQueue;
  auth: AuthContext;
  packageId: string;
  fileName: string;
  file: Readable;
}): Promise<RegistrationNumbersResponse> {
  const { auth } = options;
  const fileName = options.fileName || 'файл';
  const results = await readRegistryResults(fileName, await readAll(options.file));
  if (results.problems.length > 0) {
    throw refuse(results.problems);
  }
  return withTransaction(options.db, async (tx) => {
    const row = await requirePackage(tx, auth, options.packageId, { forUpdate: true });
    if (row.status !== 'sent' && row.status !== 'registered') {
      throw wrongStatus(row, 'Результаты реестра вносятся для отправленного пакета');
    }
    const ids = [...results.certificates, ...results.rejections].map((r) => r.notificationId);
    const events = new Map(
      (await findEventsByNotificationIds(tx, auth.organisationId, ids)).map((e) => [e.notification_id, e]),
    );
    const problems: { file: string; message: string }[] = [];
    const seen = new Map<string, string>();
    for (const result of [...results.certificates, ...results.rejections]) {
      const event = events.get(result.notificationId);
      const kind = 'number' in result ? 'свидетельство' : 'отказ';
      if (!event) {
        problems.push({
          file: result.file,
          message: `${kind}: уведомление с NotificationId ${result.notificationId} не найдено в вашей организации`,
        });
      } else if (event.package_id !== row.id) {
        problems.push({
          file: result.file,
          message: `${kind}: уведомление ${result.notificationId} не из этого пакета${event.package_number !== null ? ` (оно в пакете № ${event.package_number})` : ''}`,
        });
      } else if ('number' in result && event.kind === 'creation' && result.number.includes('/')) {
        problems.push({
          file: result.file,
          message: `свидетельство для ${result.notificationId}: у уведомления о возникновении (УЗ1) номер без «/N»`,
        });
      } else if (seen.has(result.notificationId) && seen.get(result.notificationId) !== kind) {
        problems.push({
          file: result.file,
          message: `уведомление ${result.notificationId}: в результатах и свидетельство, и отказ`,
        });
      }
      seen.set(result.notificationId, kind);
    }
    if (problems.length > 0) {
      throw refuse(problems);
    }
    const certified = results.certificates.map((c) => ({
      eventId: events.get(c.notificationId)!.id,
      registeredNumber: c.number,
      registeredAt: c.registeredAt,
    }));
    const { updated } =
      certified.length > 0
        ? await setRegisteredNumbers(tx, auth.organisationId, row.id, certified)
        : { updated: 0 };
    const rejected = await recordRegistryRejections(
      tx,
      row.id,
      results.rejections.map((r) => ({ eventId: events.get(r.notificationId)!.id, reason: r.reason })),
      auth.userId,
    );
    await addPackageHistory(tx, {
      packageId: row.id,
      action: 'registry_results',
      fromStatus: row.status,
      toStatus: row.status,
      comment: `Свидетельств: ${updated}, отказов: ${rejected} (файл «${fileName.slice(0, 200)}»)`,
      userId: auth.userId,
    });
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'pledge_package.registry_results',
      entity: 'pledge_package',
      entityId: row.id,
      details: {
        file: fileName.slice(0, 200),
        certificates: results.certificates.map((c) => ({
          notificationId: c.notificationId,
          number: c.number,
        })),
        rejections: results.rejections.map((r) => ({ notificationId: r.notificationId, reason: r.reason })),
      },
    });
    await settlePackage(tx, options.queue, auth, row.id);
    const fresh = (await getPackage(tx, auth.organisationId, row.id))!;
    return { updated, rejected: [], package: toPackage(fresh, auth) };
  });
}
