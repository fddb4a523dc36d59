import type { Finding } from '@pledgewatch/contract';
import { DATASET_NOT_LOADED, openDatasetSource } from '../sources/dataset-source.ts';
import {
  BATCH_IDENTIFIER_FROM,
  BATCH_IDENTIFIER_TO,
  type CheckItem,
  type DatasetSourceDeps,
  type SingleAnswer,
  type SourceAdapter,
} from '../sources/source-adapter.ts';
import {
  BATCH_ITEMS_WITH_KEY,
  listedAmong,
  listedBatchSql,
  passportListTable,
} from './passport-list.queries.ts';
import { formatPassport } from './passport-list-format.ts';

/**
 * What a hit says, in the finding itself (so every event, e-mail and document carries it): the MVD
 * has admitted valid passports wrongly listed (providers.md §2), so a hit is a reason to check.
 */
export const PASSPORT_LIST_NOTE =
  'Паспорт указан в перечне недействительных паспортов МВД. Проверьте паспорт (запрос в МВД, оригинал документа): ' +
  'МВД признавало ошибочное включение действительных паспортов, поэтому совпадение — повод для проверки, а не решение';

/** The finding of a listed passport: keyed by the passport, so two versions of the list diff by it. */
export const passportListFinding = (key: string, demo = false): Finding => ({
  key,
  payload: {
    passport: formatPassport(key),
    list: 'Перечень недействительных паспортов МВД',
    note: PASSPORT_LIST_NOTE,
    ...(demo ? { demo: true } : {}),
  },
});

const PASSPORT_DIGITS = /^\d{10}$/;
const UNDEFINED_TABLE = '42P01';

/**
 * The `passport` source: the MVD list's active version (checks/passport-list/). One item is one
 * index probe; a run's batch is one join of its passports to the version's table, so neither grows
 * with the list. A check that read the version just before a switch and finds its table dropped
 * reads the new active version once more.
 */
export function createPassportListSource(deps: DatasetSourceDeps): SourceAdapter {
  const { activeImport, rereadActiveImport, common } = openDatasetSource('passport', deps);

  async function checkBatch(items: CheckItem[]): Promise<SingleAnswer[]> {
    const keys = items.map((item) => item.identifier).filter((key) => PASSPORT_DIGITS.test(key));
    let listed: Set<string> | undefined;
    let demo = false;
    for (let attempt = 0; attempt < 2 && !listed; attempt++) {
      const current = await activeImport();
      if (!current) {
        return items.map(() => ({ status: 'failed', findings: [], error: DATASET_NOT_LOADED }));
      }
      try {
        demo = current.demo === true;
        listed = await listedAmong(deps.db, passportListTable(current.id), keys);
      } catch (error) {
        if ((error as { code?: string }).code !== UNDEFINED_TABLE || attempt > 0) {
          throw error;
        }
        rereadActiveImport();
      }
    }
    return items.map((item) => ({
      status: 'ok',
      findings: listed!.has(item.identifier) ? [passportListFinding(item.identifier, demo)] : [],
    }));
  }

  return {
    ...common,
    check: async (item) => (await checkBatch([item]))[0]!,
    checkBatch,
    async batchFindings() {
      const current = await activeImport();
      if (!current) {
        return null;
      }
      const finding = passportListFinding('0000000000').payload;
      return {
        // The version's table is the whole input: a new version is a new import id.
        inputVersion: `import=${current.id}`,
        sql: (p) => `SELECT b.id AS item_id, b.identifier AS key,
                            jsonb_build_object('passport', substr(b.identifier, 1, 4) || ' ' || substr(b.identifier, 5),
                                               'list', $${p}::text, 'note', $${p + 1}::text)
                            || CASE WHEN $${p + 2}::boolean THEN '{"demo": true}'::jsonb ELSE '{}'::jsonb END AS payload
                       FROM ${BATCH_ITEMS_WITH_KEY}
                       ${listedBatchSql(passportListTable(current.id), {
                         from: `$${BATCH_IDENTIFIER_FROM}::text`,
                         to: `$${BATCH_IDENTIFIER_TO}::text`,
                       })}`,
        params: [finding.list, finding.note, current.demo === true],
      };
    },
  };
}
