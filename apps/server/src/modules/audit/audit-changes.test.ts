import { describe, expect, it } from 'vitest';
import { changedFields } from './audit-changes.ts';

describe('changedFields', () => {
  it('lists only the fields whose value changed, with before and after', () => {
    expect(
      changedFields(
        { role: 'analyst', active: true, name: 'A' },
        { role: 'admin', active: true, name: undefined },
      ),
    ).toEqual({ role: { from: 'analyst', to: 'admin' } });
  });

  it('compares nested values by content and hides secrets', () => {
    expect(
      changedFields(
        { filter: { label: 'x' }, secret: 'old-signing-key' },
        { filter: { label: 'x' }, secret: 'new-signing-key' },
        { secret: ['secret'] },
      ),
    ).toEqual({ secret: { from: '••••', to: '•••• (изменён)' } });
  });
});
