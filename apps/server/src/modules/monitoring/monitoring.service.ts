import {
  type AddItemsResponse,
  DOCUMENT_TYPE_LABELS,
  type DuplicateRow,
  type FormDocRow,
  type FormVinRow,
  type ItemKind,
  type ItemStatus,
  type ItemsQueryParsed,
  type ItemsResponse,
  type MonitoringItem,
  type RowProblem,
  type UpdateItemBody,
  vinDecoding,
} from '@pledgewatch/contract';
import {
  displayIdentifier,
  type ItemRowResult,
  identityKey,
  type ValidItemRow,
  validateDocumentRow,
  validateVinRow,
} from '@pledgewatch/contract/item-rules';
import { isDocumentType } from '@pledgewatch/identifiers';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { recordAudit } from '../audit/index.ts';
import {
  findItems as findItemRows,
  findItemsByIdentity,
  getItem as getItemRow,
  type ItemRow,
  updateItem as updateItemRow,
  updateItemsStatus,
  upsertItems,
} from './monitoring.queries.ts';

export function toItem(row: ItemRow): MonitoringItem {
  const documentType = row.document_type && isDocumentType(row.document_type) ? row.document_type : null;
  return {
    id: row.id,
    kind: row.kind,
    identifier: row.identifier,
    displayIdentifier: displayIdentifier(documentType, row.identifier),
    documentType,
    documentTypeLabel: documentType ? DOCUMENT_TYPE_LABELS[documentType] : null,
    label: row.label,
    contractNumber: row.contract_number,
    pledgorName: row.pledgor_name,
    status: row.status,
    origin: row.origin,
    uploadId: row.upload_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    archivedAt: row.archived_at?.toISOString() ?? null,
    lastCheckedAt: row.last_checked_at?.toISOString() ?? null,
    vin: row.kind === 'vin' ? vinDecoding(row.identifier) : null,
  };
}

const statusesOf = (status: ItemsQueryParsed['status']): ItemStatus[] =>
  status === 'all' ? ['active', 'paused', 'archived'] : status ? [status] : ['active', 'paused'];

export async function findItems(
  options: { db: pg.Pool; auth: AuthContext } & ItemsQueryParsed,
): Promise<ItemsResponse> {
  const { items, total, totalIsEstimate } = await findItemRows(options.db, {
    organisationId: options.auth.organisationId,
    kind: options.entity,
    statuses: statusesOf(options.status),
    search: options.search,
    sort: options.sort,
    order: options.order,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map(toItem), total, totalIsEstimate };
}

async function requireItem(db: pg.Pool | pg.PoolClient, auth: AuthContext, id: string): Promise<ItemRow> {
  const item = await getItemRow(db, auth.organisationId, id);
  if (!item) {
    throw new AppError('ITEM_NOT_FOUND');
  }
  return item;
}

export async function getItem(options: {
  db: pg.Pool;
  auth: AuthContext;
  itemId: string;
}): Promise<MonitoringItem> {
  return toItem(await requireItem(options.db, options.auth, options.itemId));
}

/**
 * Adds hand-entered rows in one transaction: every row is checked, repeats inside the request and
 * items already monitored are reported instead of doubled, archived items come back.
 */
export async function addItems(options: {
  db: pg.Pool;
  auth: AuthContext;
  kind: ItemKind;
  rows: (FormVinRow | FormDocRow)[];
}): Promise<AddItemsResponse> {
  const { auth, kind } = options;
  const rejected: RowProblem[] = [];
  const warnings: RowProblem[] = [];
  const duplicates: DuplicateRow[] = [];
  const valid: { rowNumber: number; row: ValidItemRow }[] = [];
  const firstRowOf = new Map<string, number>();

  options.rows.forEach((input, index) => {
    const rowNumber = index + 1;
    const result: ItemRowResult =
      kind === 'vin' ? validateVinRow(input as FormVinRow) : validateDocumentRow(input as FormDocRow);
    if (!result.ok) {
      for (const problem of result.problems) {
        rejected.push({ rowNumber, ...problem });
      }
      return;
    }
    const { row } = result;
    const key = identityKey(row);
    const first = firstRowOf.get(key);
    if (first !== undefined) {
      duplicates.push({
        rowNumber,
        identifier: row.identifier,
        displayIdentifier: displayIdentifier(row.documentType, row.identifier),
        reason: 'in_request',
        message: `Повтор строки ${first}`,
        itemId: null,
        firstRowNumber: first,
      });
      return;
    }
    firstRowOf.set(key, rowNumber);
    if (row.warning) {
      warnings.push({ rowNumber, field: kind === 'vin' ? 'vin' : 'number', message: row.warning });
    }
    valid.push({ rowNumber, row });
  });

  const added: AddItemsResponse['added'] = [];
  const restored: AddItemsResponse['restored'] = [];
  if (valid.length > 0) {
    await withTransaction(options.db, async (tx) => {
      const upserted = await upsertItems(tx, {
        organisationId: auth.organisationId,
        userId: auth.userId,
        origin: 'form',
        rows: valid.map((v) => v.row),
      });
      const byKey = new Map(
        upserted.map((item) => [
          identityKey({
            kind: item.kind,
            documentType: item.document_type as never,
            identifier: item.identifier,
          }),
          item,
        ]),
      );
      const untouched = valid.filter((v) => !byKey.has(identityKey(v.row)));
      const existing = new Map(
        (
          await findItemsByIdentity(
            tx,
            auth.organisationId,
            untouched.map((v) => v.row),
          )
        ).map((item) => [
          identityKey({
            kind: item.kind,
            documentType: item.document_type as never,
            identifier: item.identifier,
          }),
          item,
        ]),
      );
      for (const { rowNumber, row } of valid) {
        const item = byKey.get(identityKey(row));
        if (item) {
          (item.inserted ? added : restored).push({ rowNumber, item: toItem(item) });
          continue;
        }
        const current = existing.get(identityKey(row));
        duplicates.push({
          rowNumber,
          identifier: row.identifier,
          displayIdentifier: displayIdentifier(row.documentType, row.identifier),
          reason: 'existing',
          message:
            current?.status === 'paused' ? 'Уже в портфеле (проверки приостановлены)' : 'Уже на мониторинге',
          itemId: current?.id ?? null,
          firstRowNumber: null,
        });
      }
      if (added.length + restored.length > 0) {
        await recordAudit(tx, {
          organisationId: auth.organisationId,
          userId: auth.userId,
          action: 'monitoring.items_added',
          entity: 'monitoring_item',
          entityId: null,
          details: { kind, added: added.length, restored: restored.length },
        });
      }
    });
  }
  duplicates.sort((a, b) => a.rowNumber - b.rowNumber);
  return {
    added,
    restored,
    duplicates,
    rejected,
    warnings,
    counts: {
      rows: options.rows.length,
      added: added.length,
      restored: restored.length,
      duplicates: duplicates.length,
      rejected: new Set(rejected.map((r) => r.rowNumber)).size,
    },
  };
}

export async function updateItem(options: {
  db: pg.Pool;
  auth: AuthContext;
  itemId: string;
  changes: UpdateItemBody;
}): Promise<MonitoringItem> {
  const { changes, auth } = options;
  const row = await updateItemRow(options.db, auth.organisationId, options.itemId, {
    label: changes.label ?? (changes.label === null ? null : undefined),
    contract_number: changes.contractNumber ?? (changes.contractNumber === null ? null : undefined),
    pledgor_name: changes.pledgorName ?? (changes.pledgorName === null ? null : undefined),
    status: changes.status,
  });
  if (!row) {
    throw new AppError('ITEM_NOT_FOUND');
  }
  return toItem(row);
}

export async function updateStatuses(options: {
  db: pg.Pool;
  auth: AuthContext;
  ids: string[];
  status: ItemStatus;
}): Promise<{ updated: number; notFound: string[] }> {
  const ids = [...new Set(options.ids.map((id) => id.toLowerCase()))];
  return withTransaction(options.db, async (tx) => {
    const { found, updated } = await updateItemsStatus(tx, options.auth.organisationId, ids, options.status);
    const foundSet = new Set(found);
    if (updated > 0) {
      await recordAudit(tx, {
        organisationId: options.auth.organisationId,
        userId: options.auth.userId,
        action: 'monitoring.items_status',
        entity: 'monitoring_item',
        entityId: null,
        details: { status: options.status, updated },
      });
    }
    return { updated, notFound: ids.filter((id) => !foundSet.has(id)) };
  });
}
