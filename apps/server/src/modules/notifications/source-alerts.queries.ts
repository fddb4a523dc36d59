import type { SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';

export type SourceAlertStateKind = 'failure' | 'stale';

export interface SourceAlertStateRow {
  rule_id: string;
  source_type: SourceType;
  kind: SourceAlertStateKind;
  open: boolean;
  episode: number;
}

/** Every rule's alert states, unlocked: a first look that spares the rules with nothing to change a transaction. */
export async function listSourceAlertStates(db: Queryable): Promise<SourceAlertStateRow[]> {
  const { rows } = await db.query<SourceAlertStateRow>(
    'SELECT rule_id, source_type, kind, open, episode FROM source_alert_states',
  );
  return rows;
}

/** The alert states of one rule, locked: the caller decides and writes inside its transaction. */
export async function lockSourceAlertStates(db: Queryable, ruleId: string): Promise<SourceAlertStateRow[]> {
  const { rows } = await db.query<SourceAlertStateRow>(
    `SELECT rule_id, source_type, kind, open, episode FROM source_alert_states WHERE rule_id = $1 FOR UPDATE`,
    [ruleId],
  );
  return rows;
}

export async function saveSourceAlertState(
  db: Queryable,
  state: {
    ruleId: string;
    sourceType: SourceType;
    kind: SourceAlertStateKind;
    open: boolean;
    episode: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO source_alert_states (rule_id, source_type, kind, open, episode, opened_at, closed_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $4 THEN now() END, CASE WHEN NOT $4 THEN now() END)
     ON CONFLICT (rule_id, source_type, kind) DO UPDATE
       SET open = EXCLUDED.open, episode = EXCLUDED.episode,
           opened_at = CASE WHEN EXCLUDED.open THEN now() ELSE source_alert_states.opened_at END,
           closed_at = CASE WHEN EXCLUDED.open THEN NULL ELSE now() END`,
    [state.ruleId, state.sourceType, state.kind, state.open, state.episode],
  );
}

/** Locks one rule row so that two jobs deciding about it at once take turns; false if it is gone. */
export async function lockRule(db: Queryable, ruleId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM notification_rules WHERE id = $1 AND enabled FOR UPDATE`,
    [ruleId],
  );
  return (rowCount ?? 0) > 0;
}
