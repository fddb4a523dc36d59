import { describe, expect, it } from 'vitest';
import { columnLetter, excelWallClock, tableSheetOptions } from './xlsx-layout.ts';

describe('XLSX layout', () => {
  it('turns our Moscow date texts into the Date that shows that wall clock in Excel', () => {
    expect(excelWallClock('03.03.2026 00:30')).toEqual(new Date(Date.UTC(2026, 2, 3, 0, 30)));
    expect(excelWallClock('03.03.2026 00:30:09')).toEqual(new Date(Date.UTC(2026, 2, 3, 0, 30, 9)));
    expect(excelWallClock('31.12.2025')).toEqual(new Date(Date.UTC(2025, 11, 31)));
    expect(excelWallClock('2025-01-15')).toEqual(new Date(Date.UTC(2025, 0, 15)));
  });

  it('leaves what is not a date as text', () => {
    for (const text of ['31.02.2026', '1.3.2026', 'КД-01.02.2026', '', '2026-13-01']) {
      expect(excelWallClock(text), text).toBeNull();
    }
  });

  it('filters the header row across every column', () => {
    expect(columnLetter(1)).toBe('A');
    expect(columnLetter(26)).toBe('Z');
    expect(columnLetter(27)).toBe('AA');
    expect(tableSheetOptions(13).autoFilter).toBe('A1:M1');
  });
});
