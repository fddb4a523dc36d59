import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';

describe('dates and times on screen', () => {
  it('shows every instant in Moscow time, whatever the zone of the browser', () => {
    // A run finished at 01:40 UTC: the items list and the home page both say 04:40 (МСК).
    expect(formatDateTime('2026-11-24T01:40:00Z')).toBe('24.11.2026, 04:40');
    expect(formatDateTime('2026-03-01T21:30:00Z')).toBe('02.03.2026, 00:30');
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('не дата')).toBe('не дата');
  });
});
