import { describe, expect, it } from 'vitest';
import { applyRowChange, emptyRow } from './grid-rows';

describe('a hand-entered portfolio row', () => {
  it('keeps a VIN typed in lower case in capitals, as the pledge form does', () => {
    const row = applyRowChange(emptyRow('vin'), { identifier: 'xta21703080123456' });
    expect(row.identifier).toBe('XTA21703080123456');
    // Switching a document row to VIN capitalises what is already there.
    const switched = applyRowChange({ ...emptyRow('inn'), identifier: 'wdb12345678901234' }, { type: 'vin' });
    expect(switched.identifier).toBe('WDB12345678901234');
  });

  it('leaves a document number as typed', () => {
    expect(applyRowChange(emptyRow('passport_rf'), { identifier: '45 05 123456' }).identifier).toBe(
      '45 05 123456',
    );
  });

  it('drops the server refusal once the field it names is edited', () => {
    const refused = {
      ...emptyRow('vin'),
      identifier: 'X',
      serverError: { field: 'label' as const, message: 'длинно' },
    };
    expect(applyRowChange(refused, { identifier: 'Y' }).serverError).not.toBeNull();
    expect(applyRowChange(refused, { label: 'новое' }).serverError).toBeNull();
  });
});
