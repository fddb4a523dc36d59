import {
  DOCUMENT_TYPE_LABELS,
  type OneTimeCheck,
  type OneTimeCheckBody,
  type OneTimeCheckSummary,
  SOURCE_TYPES,
  type SourceAnswer,
  type SourceType,
  toVinDecoding,
  type VinDecoding,
} from '@pledgewatch/contract';
import { type DocumentType, formatDocument, validateDocument, validateVin } from '@pledgewatch/identifiers';
import type pg from 'pg';
import type { AppConfig } from '../../../config/env.ts';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { AuthContext } from '../../../lib/auth-context.ts';
import { moscowDate } from '../../../lib/moscow-time.ts';
import type { CheckItem, SingleAnswer } from '../sources/source-adapter.ts';
import { createSourceAdapters } from '../sources/source-registry.ts';
import {
  findOneTimeChecks as findOneTimeCheckRows,
  insertNumberedOneTimeCheck,
  type OneTimeCheckRow,
  getOneTimeCheck as selectOneTimeCheck,
} from './one-time-checks.queries.ts';

export const CHECK_NUMBER_PREFIX = 'ПР';

export function displayIdentifier(
  row: Pick<OneTimeCheckRow, 'kind' | 'document_type' | 'identifier'>,
): string {
  return row.kind === 'document' && row.document_type
    ? formatDocument(row.document_type as DocumentType, row.identifier)
    : row.identifier;
}

function toSummary(row: OneTimeCheckRow): OneTimeCheckSummary {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    documentType: row.document_type as DocumentType | null,
    documentTypeLabel: row.document_type ? DOCUMENT_TYPE_LABELS[row.document_type as DocumentType] : null,
    identifier: row.identifier,
    identifierDisplay: displayIdentifier(row),
    status: row.status,
    findingsCount: row.findings_count,
    demo: row.demo,
    createdBy: { id: row.created_by, fullName: row.created_by_name },
    createdAt: row.created_at.toISOString(),
    durationMs: row.duration_ms,
  };
}

/**
 * The sources' answers as stored with the check: the provider is the one that answered then (a
 * check stored before providers were recorded has none, read as its kind of source).
 */
export const storedSources = (row: Pick<OneTimeCheckRow, 'sources'>): SourceAnswer[] =>
  row.sources.map((source) => ({ ...source, provider: source.provider ?? null }));

export function toOneTimeCheck(row: OneTimeCheckRow): OneTimeCheck {
  return {
    ...toSummary(row),
    decoded: row.decoded as VinDecoding | null,
    warnings: row.warnings,
    sources: storedSources(row),
  };
}

/** Validates the subject as the forms do; errors land on the field the user typed into. */
function readSubject(body: OneTimeCheckBody): {
  item: CheckItem;
  decoded: VinDecoding | null;
  warnings: string[];
} {
  if (body.vin?.trim()) {
    const vin = validateVin(body.vin);
    if (!vin.ok) {
      throw new AppError('VALIDATION_FAILED', { fieldErrors: [{ field: 'vin', message: vin.error }] });
    }
    return {
      item: { kind: 'vin', documentType: null, identifier: vin.value },
      decoded: toVinDecoding(vin.decoded, vin.warnings),
      warnings: vin.warnings,
    };
  }
  if (body.documentType || body.documentNumber?.trim()) {
    if (!body.documentType) {
      throw new AppError('VALIDATION_FAILED', {
        fieldErrors: [{ field: 'documentType', message: 'Тип документа: выберите значение из списка' }],
      });
    }
    const document = validateDocument(body.documentType, body.documentNumber ?? '');
    if (!document.ok) {
      throw new AppError('VALIDATION_FAILED', {
        fieldErrors: [{ field: 'documentNumber', message: document.error }],
      });
    }
    return {
      item: { kind: 'document', documentType: body.documentType, identifier: document.value },
      decoded: null,
      warnings: [],
    };
  }
  throw new AppError('VALIDATION_FAILED', {
    fieldErrors: [{ field: 'vin', message: 'Укажите VIN или тип и номер документа' }],
  });
}

const moscowYear = (date: Date) => Number(moscowDate(date).slice(0, 4));

/**
 * Asks every source that answers for the subject's kind, now and in parallel, and stores the check
 * with who ran it. A source that failed is stored as failed, never as «nothing found».
 */
export async function runOneTimeCheck(options: {
  db: pg.Pool;
  config: Pick<AppConfig, 'remoteSources'>;
  auth: AuthContext;
  body: OneTimeCheckBody;
}): Promise<OneTimeCheck> {
  const { item, decoded, warnings } = readSubject(options.body);
  const started = performance.now();
  const adapters = createSourceAdapters({ ...options, organisationId: options.auth.organisationId }).filter(
    (adapter) => adapter.itemKinds.includes(item.kind),
  );
  const notAsked = new Set<SourceType>();
  const sources = await Promise.all(
    adapters.map(async (adapter): Promise<SourceAnswer> => {
      const base = {
        type: adapter.type,
        name: SOURCE_TYPES[adapter.type].name,
        adapter: adapter.adapter,
        provider: adapter.provider ?? null,
      };
      if (!adapter.answersFor(item)) {
        return {
          ...base,
          status: 'skipped',
          findings: [],
          error: null,
          durationMs: 0,
          datasetVersion: null,
          fromCache: false,
        };
      }
      const t0 = performance.now();
      let answer: SingleAnswer;
      try {
        answer = await adapter.check(item);
        if (answer.status === 'failed' && answer.notAsked) {
          notAsked.add(adapter.type);
        }
      } catch {
        answer = { status: 'failed', findings: [], error: 'Внутренняя ошибка при обращении к источнику' };
      }
      return {
        ...base,
        status: answer.status,
        findings: answer.findings,
        error: answer.status === 'failed' ? answer.error : null,
        durationMs: Math.round(performance.now() - t0),
        datasetVersion: await adapter.datasetVersion().catch(() => null),
        fromCache: answer.status === 'ok' && Boolean(answer.fromCache),
      };
    }),
  );
  const asked = sources.filter((source) => source.status !== 'skipped');
  // A source its spent daily limit kept from being asked did not answer: nothing for its health.
  const answered = asked.filter((source) => !source.fromCache && !notAsked.has(source.type));
  const failed = asked.filter((source) => source.status === 'failed').length;
  const status = failed === 0 ? 'completed' : failed === asked.length ? 'failed' : 'partial';
  const findingsCount = sources.reduce((sum, source) => sum + source.findings.length, 0);
  const demo = sources.some((source) => source.findings.some((finding) => finding.payload.demo === true));
  const durationMs = performance.now() - started;

  // Numbered, stored with the sources' timings and read back in one statement: the organisation's
  // counter is locked for it and the COMMIT only. In a transaction all the same: a client gone before
  // the COMMIT (the app killed) must leave no check and no number used, which an autocommitted
  // statement would not.
  const row = await withTransaction(options.db, (tx) =>
    insertNumberedOneTimeCheck(tx, {
      prefix: CHECK_NUMBER_PREFIX,
      year: moscowYear(new Date()),
      organisationId: options.auth.organisationId,
      kind: item.kind,
      documentType: item.documentType,
      identifier: item.identifier,
      decoded,
      warnings,
      status,
      findingsCount,
      demo,
      sources,
      createdBy: options.auth.userId,
      durationMs,
      answers: answered.map((source) => ({
        type: source.type,
        ok: source.status === 'ok',
        durationMs: source.durationMs,
        error: source.error,
      })),
    }),
  );
  return toOneTimeCheck(row);
}

/** The organisation's check or 404 (another organisation's check is reported as missing). */
export async function requireOneTimeCheckRow(options: {
  db: pg.Pool;
  auth: AuthContext;
  id: string;
}): Promise<OneTimeCheckRow> {
  const row = await selectOneTimeCheck(options.db, {
    id: options.id,
    organisationId: options.auth.organisationId,
  });
  if (!row) {
    throw new AppError('NOT_FOUND', { message: 'Проверка не найдена' });
  }
  return row;
}

export async function getOneTimeCheck(options: {
  db: pg.Pool;
  auth: AuthContext;
  id: string;
}): Promise<OneTimeCheck> {
  return toOneTimeCheck(await requireOneTimeCheckRow(options));
}

export async function findOneTimeChecks(options: {
  db: pg.Pool;
  auth: AuthContext;
  page: number;
  pageSize: number;
  search?: string;
  kind?: 'vin' | 'document';
}): Promise<{ items: OneTimeCheckSummary[]; total: number }> {
  const { items, total } = await findOneTimeCheckRows(options.db, {
    organisationId: options.auth.organisationId,
    search: options.search,
    kind: options.kind,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map(toSummary), total };
}
