import type { StatisticsResponse } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { statisticsCsv } from './chart-export';

const point = {
  bucket: '2026-03-02',
  bucketEnd: '2026-03-08',
  eventsByType: {},
  events: 3,
  itemsMonitored: 10,
  itemsAdded: 2,
  itemsArchived: 0,
  checkRuns: 1,
  checkRunItems: 10,
  oneTimeChecks: 0,
  uploads: 1,
  uploadRows: 5,
  uploadRowsAccepted: 4,
  uploadRowsRejected: 1,
  deliveries: { queued: 0, sending: 0, retrying: 0, sent: 1, failed: 0 },
};

describe('statistics CSV export', () => {
  it('is written by the shared writer: BOM, ; between cells, CRLF after every row', () => {
    const data = { from: '2026-03-01', to: '2026-03-31', eventTypes: [], points: [point] };
    const csv = statisticsCsv(data as unknown as StatisticsResponse);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(3); // header, one point, the empty tail after the last CRLF
    expect(lines[2]).toBe('');
    expect(lines[1]!.startsWith('02.03.2026;08.03.2026;3;10;2;0;1;10;0;1;5;4;1;')).toBe(true);
    // Every header cell that starts like a formula would be written with an apostrophe.
    for (const cell of lines[0]!.split(';')) {
      expect(cell).not.toMatch(/^[=+\-@]/);
    }
  });
});
