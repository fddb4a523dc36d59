import { Readable } from 'node:stream';
import { pledgeEventInputSchema, SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import type { z } from 'zod';
import { withTransaction } from '../db/pool.ts';
import type { JobContext } from '../jobs/job-definition.ts';
import { recheckItemsMessage } from '../jobs/recheck-items-message.ts';
import type { AuthContext } from '../lib/auth-context.ts';
import { moscowClock } from '../lib/moscow-time.ts';
import { outboundPolicy } from '../lib/outbound/outbound-request.ts';
import { recheckItemsJob } from '../modules/checks/jobs/recheck-items.job.ts';
import { raiseLapseEvents } from '../modules/checks/lapse/pledge-lapse.ts';
import { processCheckBatch } from '../modules/checks/runs/check-batch.service.ts';
import { listBatchNumbers } from '../modules/checks/runs/runs.queries.ts';
import { planCheckRun, startCheckRun } from '../modules/checks/runs/runs.service.ts';
import type { DatasetRecord } from '../modules/checks/sources/sources.queries.ts';
import { importDatasetIn } from '../modules/checks/sources/sources.service.ts';
import { listSourceRules } from '../modules/notifications/notifications.queries.ts';
import { createRule } from '../modules/notifications/notifications.service.ts';
import { notifySourceHealth } from '../modules/notifications/source-alerts.service.ts';
import { saveRegistrationNumbers } from '../modules/pledges/pledge-package-numbers.service.ts';
import { createPledgePackage, transitionPackage } from '../modules/pledges/pledge-packages.service.ts';
import { createPledgeEvent } from '../modules/pledges/pledges.service.ts';
import { importUploadJob } from '../modules/uploads/jobs/import-upload.job.ts';
import { validateUploadJob } from '../modules/uploads/jobs/validate-upload.job.ts';
import { createUpload } from '../modules/uploads/uploads.service.ts';
import { getUserByEmail } from '../modules/users/users.queries.ts';
import { backdateSince, stepStart } from './demo-backdate.ts';
import { buildDemoDatasets, demoPortfolioItems, demoRecordPayload } from './demo-datasets.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
type RecheckItems = z.output<typeof recheckItemsMessage.payload>;

/** Where the history's steps fall: days before the first start. */
export const DEMO_HISTORY_DAYS = {
  rules: 29,
  firstRun: 28,
  upload: 25,
  registeredPackage: [22, 21, 20, 19],
  rejectedPackage: [16, 15, 14, 13],
  sourceOutage: [12, 11],
  sentPackage: [10, 9, 8],
  datasetUpdate: 7,
  readyPackage: [6, 5],
  draftPackage: 3,
  secondRun: 2,
} as const;

export const DEMO_REJECTION_REASON =
  'Реестр: серия и номер паспорта залогодателя не совпадают с данными МВД (ДЕМО)';
export const DEMO_RULE_NAME = 'ДЕМО: события по BMW';
export const DEMO_SOURCE_RULE_NAME = 'ДЕМО: устаревшие данные МВД';
/** The pledge whose term ends within 30 days of the first start: it gets its lapse event. */
export const DEMO_LAPSE_DAYS_LEFT = 25;

/** The demo bank as the pledgee (valid INN and OGRN check digits). */
const PLEDGEE = {
  type: 'company',
  name: 'АО «Демо-банк «Залоговый»»',
  inn: '7709000010',
  ogrn: '1027709000010',
};

type HistoryContext = Pick<JobContext, 'db' | 'config' | 'queue' | 'mailer' | 'log'>;

const isoDate = (date: Date) => moscowClock(date).date;
const daysAgo = (days: number, from = new Date()) => new Date(from.getTime() - days * DAY_MS);

/**
 * The demo organisation's last month, made by the product's own services (a regular run, an upload,
 * pledge notifications and packages, notification rules, a source outage, lapse events) so that a
 * newcomer's first screens show a working product. Each step is then moved back to its day
 * (demo-backdate.ts). Runs once, right after the organisation is created (demo-seed.ts).
 */
export async function seedDemoHistory(context: HistoryContext, organisationId: string): Promise<void> {
  const { db, config, queue } = context;
  const [admin, analyst] = await Promise.all(
    ['admin@demo.pledgewatch.ru', 'analyst@demo.pledgewatch.ru'].map(async (email) => {
      const user = await getUserByEmail(db, email);
      if (!user) {
        throw new Error(`demo account ${email} is missing`);
      }
      const auth: AuthContext = {
        sessionId: '',
        userId: user.id,
        organisationId,
        role: user.role,
        isStaff: false,
      };
      return { auth, email };
    }),
  );
  const at = async <T>(days: number, work: () => Promise<T>): Promise<T> => {
    const since = await stepStart(db);
    const result = await work();
    await backdateSince(db, { organisationId, since, days });
    return result;
  };
  // The history's runs read the demo datasets even where a provider is configured: the past cannot
  // be asked of a provider, and a first start must not spend its requests (or its rate limit).
  const runConfig = { ...config, remoteSources: {} };
  const finishRun = async (runId: string) => {
    await planCheckRun({ db, queue, config: runConfig, runId });
    for (const batchNo of await listBatchNumbers(db, runId)) {
      await processCheckBatch({ db, config: runConfig, queue, runId, batchNo, lastAttempt: true });
    }
  };
  const checkRun = async (trigger: 'manual' | 'scheduled') => {
    const run = await startCheckRun({
      db,
      config: runConfig,
      queue,
      organisationId,
      trigger,
      userId: trigger === 'manual' ? analyst!.auth.userId : null,
    });
    // What the worker's jobs do, here and now: the history must exist before the first sign-in.
    await finishRun(run.id);
    return run.id;
  };

  const jobContext = context as JobContext;
  await at(DEMO_HISTORY_DAYS.rules, () => createDemoRules(context, admin!, analyst!));

  await at(DEMO_HISTORY_DAYS.firstRun, () => checkRun('manual'));

  await at(DEMO_HISTORY_DAYS.upload, async () => {
    const upload = await createUpload({
      db,
      queue,
      config,
      auth: analyst!.auth,
      kind: 'items',
      autoConfirm: true,
      file: { fileName: 'ДЕМО-новые-договоры.csv', stream: Readable.from([Buffer.from(uploadCsv())]) },
    });
    const job = { id: 'demo', data: { uploadId: upload.id }, retryCount: 0, retryLimit: 0 };
    await validateUploadJob.handler(job, jobContext);
    await importUploadJob.handler(job, jobContext);
  });

  // Pledge notifications entered by the analyst (maker) and approved by the admin (checker), on
  // vehicles and pledgors of the portfolio, so the portfolio keeps its size.
  const parties = await pledgeParties(context, organisationId);
  const notification = async (index: number, days: number, endDate?: string) => {
    const party = parties[index]!;
    const signed = isoDate(daysAgo(days + 2));
    const [lastName, firstName, middleName] = party.pledgorName.split(' ');
    const event = pledgeEventInputSchema.parse({
      kind: 'creation',
      notificationDate: isoDate(daysAgo(days)),
      pledgor: {
        type: 'individual',
        lastName,
        firstName,
        middleName: middleName ?? null,
        birthDate: `19${70 + index * 3}-0${1 + index}-1${index}`,
        documentType: 'passport_rf',
        documentNumber: party.passport,
      },
      pledgee: PLEDGEE,
      contract: {
        name: 'Договор залога (ДЕМО)',
        number: `ДЗ-ДЕМО-${String(index + 1).padStart(3, '0')}`,
        date: signed,
        endDate: endDate ?? isoDate(new Date(Date.now() + 3 * 365 * DAY_MS)),
      },
      vehicles: [{ vin: party.vin, description: party.label }],
    });
    return (await createPledgeEvent({ db, auth: analyst!.auth, event })).event.id;
  };
  const pack = (eventIds: string[], name: string) =>
    createPledgePackage({ db, auth: analyst!.auth, name, eventIds }).then((created) => created.id);
  const move = (packageId: string, action: 'approve' | 'send' | 'register' | 'reject', comment?: string) =>
    transitionPackage({
      db,
      queue,
      auth: action === 'approve' ? admin!.auth : analyst!.auth,
      packageId,
      action,
      comment,
    });

  const [regCreated, regApproved, regSent, regRegistered] = DEMO_HISTORY_DAYS.registeredPackage;
  const lapseEnd = isoDate(new Date(Date.now() + DEMO_LAPSE_DAYS_LEFT * DAY_MS));
  const registered = await at(regCreated, async () => {
    const ids = [await notification(0, regCreated, lapseEnd), await notification(1, regCreated)];
    return { ids, packageId: await pack(ids, 'ДЕМО: новые договоры, неделя 1') };
  });
  await at(regApproved, () => move(registered.packageId, 'approve'));
  await at(regSent, () => move(registered.packageId, 'send'));
  await at(regRegistered, async () => {
    const year = moscowClock(daysAgo(regRegistered)).date.slice(0, 4);
    await saveRegistrationNumbers({
      db,
      auth: analyst!.auth,
      packageId: registered.packageId,
      items: registered.ids.map((eventId, index) => ({
        eventId,
        registeredNumber: `${year}-777-${String(4201 + index).padStart(6, '0')}-${String(101 + index)}`,
      })),
    });
    await move(registered.packageId, 'register');
    await recheckRegisteredVehicles(jobContext, organisationId, finishRun);
  });

  const [rejCreated, rejApproved, rejSent, rejRejected] = DEMO_HISTORY_DAYS.rejectedPackage;
  const rejected = await at(rejCreated, async () =>
    pack([await notification(2, rejCreated)], 'ДЕМО: новые договоры, неделя 2'),
  );
  await at(rejApproved, () => move(rejected, 'approve'));
  await at(rejSent, () => move(rejected, 'send'));
  await at(rejRejected, () => move(rejected, 'reject', DEMO_REJECTION_REASON));

  const [outageStarts, outageEnds] = DEMO_HISTORY_DAYS.sourceOutage;
  await sourceOutage(context, organisationId, at, outageStarts, outageEnds);

  const [sentCreated, sentApproved, sentSent] = DEMO_HISTORY_DAYS.sentPackage;
  const sent = await at(sentCreated, async () =>
    pack([await notification(3, sentCreated)], 'ДЕМО: новые договоры, неделя 3'),
  );
  await at(sentApproved, () => move(sent, 'approve'));
  await at(sentSent, () => move(sent, 'send'));

  await at(DEMO_HISTORY_DAYS.datasetUpdate, () => updateDatasets(context, organisationId));

  const [readyCreated, readyApproved] = DEMO_HISTORY_DAYS.readyPackage;
  const ready = await at(readyCreated, async () =>
    pack([await notification(4, readyCreated)], 'ДЕМО: новые договоры, неделя 4'),
  );
  await at(readyApproved, () => move(ready, 'approve'));
  await at(DEMO_HISTORY_DAYS.draftPackage, async () =>
    pack([await notification(5, DEMO_HISTORY_DAYS.draftPackage)], 'ДЕМО: черновик'),
  );

  await at(DEMO_HISTORY_DAYS.secondRun, () => checkRun('scheduled'));

  // Today: the pledge of the first package ends within a month, so the lapse job's event is due now.
  await raiseLapseEvents({ db, queue });
}

/**
 * Registration queues a check of the package's vehicles (the recheck job). Its run belongs to the
 * registration's day, so it is made and finished here: the job is taken from the queue and run as
 * the worker would, or, when a worker took it first, its run is waited for and finished.
 */
async function recheckRegisteredVehicles(
  context: JobContext,
  organisationId: string,
  finishRun: (runId: string) => Promise<void>,
): Promise<void> {
  const { boss } = context.queue;
  const jobs = await boss.fetch<RecheckItems>(recheckItemsMessage.name, { batchSize: 10 });
  for (const job of jobs) {
    await recheckItemsJob.handler({ id: job.id, data: job.data, retryCount: 0, retryLimit: 0 }, context);
    await boss.complete(recheckItemsMessage.name, job.id);
  }
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { rows } = await context.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM check_runs
        WHERE organisation_id = $1 AND trigger = 'pledge_registered' AND created_at > now() - interval '1 hour'`,
      [organisationId],
    );
    const open = rows.filter((row) => row.status === 'queued' || row.status === 'running');
    for (const row of open) {
      await finishRun(row.id);
    }
    if (rows.length > 0 && open.length === 0) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Vehicles of the portfolio with passports of its pledgors: a BMW first (the rule watches BMW). */
async function pledgeParties(context: HistoryContext, organisationId: string) {
  const { rows: vins } = await context.db.query<{ identifier: string; label: string }>(
    `SELECT identifier, label FROM monitoring_items
      WHERE organisation_id = $1 AND origin = 'demo' AND kind = 'vin' AND status = 'active'
      ORDER BY label NOT LIKE 'BMW%', identifier LIMIT 6`,
    [organisationId],
  );
  const { rows: passports } = await context.db.query<{ identifier: string; pledgor_name: string }>(
    `SELECT identifier, pledgor_name FROM monitoring_items
      WHERE organisation_id = $1 AND origin = 'demo' AND document_type = 'passport_rf' AND status = 'active'
        AND pledgor_name ~ '^\\S+ \\S+ \\S+$'
      ORDER BY identifier LIMIT 6`,
    [organisationId],
  );
  return vins.map((vin, index) => ({
    vin: vin.identifier,
    label: vin.label,
    passport: passports[index]!.identifier,
    pledgorName: passports[index]!.pledgor_name,
  }));
}

/** Four new vehicles, three rows the upload refuses (each with its reason) and a repeated row. */
function uploadCsv(): string {
  const vin = (serial: number) => {
    const body = `XW8ZZZ5N0S${String(serial).padStart(7, '0')}`.slice(0, 17);
    return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
  };
  const good = [1, 2, 3, 4].map(
    (n) => `${vin(9_100_000 + n)};Volkswagen Tiguan, 2025, серый;КД-2025/9${n}0001;Новиков Сергей Петрович`,
  );
  return [
    'VIN;Метка;Номер договора;Залогодатель',
    ...good,
    // The letter O is never in a VIN (ISO 3779): a typo for the zero.
    'XW8ZZZ5N0SO100006;Volkswagen Tiguan, 2025, белый;КД-2025/950001;Орлов Андрей Иванович',
    'XW8ZZZ5N0S91;Volkswagen Polo, 2024, синий;КД-2025/960001;Захаров Николай Сергеевич',
    ';Без VIN;КД-2025/970001;Павлов Иван Алексеевич',
    `${vin(9_100_001)};Volkswagen Tiguan, 2025, серый;КД-2025/910001;Новиков Сергей Петрович`,
  ].join('\r\n');
}

/**
 * The MVD passport list went unanswered for days: the stale-data rule's episode opens with its
 * alert and closes with the «refreshed» message. Source rules are global (every organisation's rule
 * watches the shared sources), so this made-up outage is played only while the demo's rules are the
 * only source rules: another organisation never gets an alert about it.
 */
async function sourceOutage(
  context: HistoryContext,
  organisationId: string,
  at: <T>(days: number, work: () => Promise<T>) => Promise<T>,
  starts: number,
  ends: number,
): Promise<void> {
  const rules = await listSourceRules(context.db);
  if (rules.some((rule) => rule.organisation_id !== organisationId)) {
    return;
  }
  const passport = (now: Date, health: { failures: number; refreshed: Date }) =>
    notifySourceHealth({
      db: context.db,
      queue: context.queue,
      appUrl: context.config.appUrl,
      now,
      sources: [
        {
          type: 'passport',
          name: SOURCE_TYPES.passport.name,
          consecutiveFailures: health.failures,
          lastError: health.failures > 0 ? 'Сервис МВД не отвечает: 503 (ДЕМО)' : null,
          lastRefreshAt: health.refreshed,
        },
      ],
    });
  await at(starts, () => passport(daysAgo(starts), { failures: 6, refreshed: daysAgo(starts + 4) }));
  await at(ends, () => passport(daysAgo(ends), { failures: 0, refreshed: daysAgo(ends) }));
}

/**
 * New versions of two demo datasets, so the second run has changes to find: some wanted vehicles
 * were found, others are newly wanted, and some pledges of other creditors were excluded. A dataset
 * whose active version is not the demo's is left alone (real data is never replaced).
 */
async function updateDatasets(context: HistoryContext, organisationId: string): Promise<void> {
  const records = buildDemoDatasets(await demoPortfolioItems(context.db, organisationId));
  const vins = (await demoPortfolioItems(context.db, organisationId))
    .filter((item) => item.kind === 'vin')
    .map((item) => item.identifier);
  const since = isoDate(daysAgo(DEMO_HISTORY_DAYS.datasetUpdate + 1));
  const wanted = [
    ...records.wanted.filter((_, index) => index % 4 !== 0),
    ...vins
      .filter((_, index) => index % 29 === 11)
      .map(
        (vin, index): DatasetRecord => ({
          documentType: '',
          identifier: vin,
          key: `РЗ-Н-${String(index + 1).padStart(5, '0')}`,
          payload: demoRecordPayload({
            record_id: `РЗ-Н-${String(index + 1).padStart(5, '0')}`,
            since,
            region: 'Москва',
            initiator: 'ГУ МВД',
          }),
        }),
      ),
  ];
  // Only pledges of portfolio vehicles lapse: the reserved VINs outside it keep their records.
  const portfolioVins = new Set(vins);
  const pledges = records.pledges.map((record, index) =>
    index % 10 === 3 && record.payload.status === 'active' && portfolioVins.has(record.identifier)
      ? { ...record, payload: { ...record.payload, status: 'excluded', excluded_at: since } }
      : record,
  );
  const versions: [SourceType, DatasetRecord[]][] = [
    ['wanted', wanted],
    ['pledges', pledges],
  ];
  await withTransaction(context.db, async (tx) => {
    for (const [type, list] of versions) {
      const { rows } = await tx.query<{ file_name: string }>(
        `SELECT file_name FROM source_imports WHERE source_type = $1 AND status = 'active'`,
        [type],
      );
      if (rows.some((row) => !row.file_name.startsWith('demo-'))) {
        continue;
      }
      await importDatasetIn(tx, { type, fileName: `demo-${type}-2.json`, records: list });
    }
  });
}

type DemoUser = { auth: AuthContext; email: string };

/** An events rule on the BMW items to the analyst, and a stale-source rule on the passport list to the admin. */
async function createDemoRules(context: HistoryContext, admin: DemoUser, analyst: DemoUser): Promise<void> {
  const { db } = context;
  const outbound = outboundPolicy(context.config);
  await createRule({
    db,
    auth: admin.auth,
    outbound,
    rule: {
      name: DEMO_RULE_NAME,
      enabled: true,
      eventTypes: [],
      minSeverity: 'medium',
      itemFilter: { label: 'BMW', contractNumber: null },
      method: 'email',
      recipients: [analyst.email],
      config: {},
      mode: 'instant',
      digestHour: 9,
      subject: 'events',
      sourceType: null,
      failureThreshold: 3,
      staleHours: 24,
      notifyRecovery: true,
    },
  });
  await createRule({
    db,
    auth: admin.auth,
    outbound,
    rule: {
      name: DEMO_SOURCE_RULE_NAME,
      enabled: true,
      eventTypes: [],
      minSeverity: 'low',
      itemFilter: { label: null, contractNumber: null },
      method: 'email',
      recipients: [admin.email],
      config: {},
      mode: 'instant',
      digestHour: 9,
      subject: 'source_stale',
      sourceType: 'passport',
      failureThreshold: 3,
      staleHours: 72,
      notifyRecovery: true,
    },
  });
}
