import { describe, expect, it } from 'vitest';
import { type DatasetRow, readDatasetCsv } from './dataset-layouts.ts';

async function* byteChunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let from = 0; from < bytes.length; from += size) {
    yield bytes.subarray(from, from + size);
  }
}

async function rows(bytes: Uint8Array, size: number): Promise<DatasetRow[]> {
  const list: DatasetRow[] = [];
  for await (const row of readDatasetCsv(byteChunks(bytes, size))) {
    list.push(row);
  }
  return list;
}

describe('dataset CSV through the shared reader', () => {
  it('reads a quoted cell crossing chunk boundaries, whatever the chunk size', async () => {
    const note = 'Залог; "первый"\nвторая строка';
    const bytes = new TextEncoder().encode(
      `\uFEFFVIN,Record_ID,note\n"XTA21703,0C0412345",1,"${note.replaceAll('"', '""')}"\n,,\nB,2,\n`,
    );
    const expected = [
      { rowNumber: 2, values: { vin: 'XTA21703,0C0412345', record_id: '1', note }, longColumns: undefined },
      { rowNumber: 4, values: { vin: 'B', record_id: '2', note: '' }, longColumns: undefined },
    ];
    for (const size of [1, 2, 3, 7, 16, 1024]) {
      expect(await rows(bytes, size), `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it('marks the columns whose cell was cut at the reader cap', async () => {
    const bytes = new TextEncoder().encode(`vin;note\nA;${'ж'.repeat(3000)}\n`);
    const [row] = await rows(bytes, 500);
    expect(row!.values.note).toHaveLength(1000);
    expect([...row!.longColumns!]).toEqual(['note']);
  });
});
