import type { AddItemsResponse } from '@pledgewatch/contract';

/** One row of the answer, numbered as the user sees it (grid row, not request row). */
export type OutcomeRow = {
  rowNumber: number;
  identifier: string;
  message: string | null;
  itemId: string | null;
  /** The field the server blamed (vin, number, label…); null for the row as a whole. */
  field: string | null;
};

export type AddOutcome = {
  added: OutcomeRow[];
  restored: OutcomeRow[];
  duplicates: OutcomeRow[];
  rejected: OutcomeRow[];
  warnings: OutcomeRow[];
};

export const emptyOutcome = (): AddOutcome => ({
  added: [],
  restored: [],
  duplicates: [],
  rejected: [],
  warnings: [],
});

/**
 * Translates one answer into screen rows. `sent[i]` is what the user typed in request row i + 1 and
 * `rowNumbers[i]` the number the user sees for it.
 */
export function toOutcome(
  response: AddItemsResponse,
  sent: readonly string[],
  rowNumbers: readonly number[],
): AddOutcome {
  const shown = (rowNumber: number) => rowNumbers[rowNumber - 1] ?? rowNumber;
  const typed = (rowNumber: number) => sent[rowNumber - 1] ?? '';
  return {
    added: response.added.map(({ rowNumber, item }) => ({
      rowNumber: shown(rowNumber),
      identifier: item.displayIdentifier,
      message: null,
      itemId: item.id,
      field: null,
    })),
    restored: response.restored.map(({ rowNumber, item }) => ({
      rowNumber: shown(rowNumber),
      identifier: item.displayIdentifier,
      message: null,
      itemId: item.id,
      field: null,
    })),
    duplicates: response.duplicates.map((row) => ({
      rowNumber: shown(row.rowNumber),
      identifier: row.displayIdentifier,
      message: row.message,
      itemId: row.itemId,
      field: null,
    })),
    rejected: response.rejected.map((row) => ({
      rowNumber: shown(row.rowNumber),
      identifier: typed(row.rowNumber),
      message: row.message,
      itemId: null,
      field: row.field,
    })),
    warnings: response.warnings.map((row) => ({
      rowNumber: shown(row.rowNumber),
      identifier: typed(row.rowNumber),
      message: row.message,
      itemId: null,
      field: row.field,
    })),
  };
}

export function mergeOutcomes(...outcomes: AddOutcome[]): AddOutcome {
  const merged = emptyOutcome();
  for (const outcome of outcomes) {
    for (const key of Object.keys(merged) as (keyof AddOutcome)[]) {
      merged[key].push(...outcome[key]);
    }
  }
  for (const key of Object.keys(merged) as (keyof AddOutcome)[]) {
    merged[key].sort((a, b) => a.rowNumber - b.rowNumber);
  }
  return merged;
}
