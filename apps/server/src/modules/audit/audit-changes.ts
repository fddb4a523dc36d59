/**
 * The fields that differ between two states, as { field: { from, to } } for the audit log's
 * `changes`. Secret fields (tokens, signing keys) are reported as changed without their values.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  options: { secret?: readonly string[] } = {},
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(after)) {
    if (after[key] === undefined || JSON.stringify(before[key]) === JSON.stringify(after[key])) {
      continue;
    }
    changes[key] = options.secret?.includes(key)
      ? { from: '••••', to: '•••• (изменён)' }
      : { from: before[key] ?? null, to: after[key] ?? null };
  }
  return changes;
}
