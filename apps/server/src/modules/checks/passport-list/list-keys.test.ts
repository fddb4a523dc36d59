import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCopyRows } from '../testing/copy-rows.ts';
import { ListKeyStore } from './list-keys.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-list-keys-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const parsedText = (keys: string[]) => Buffer.from(keys.map((key) => `${key}\n`).join(''));

/** What the version table must hold for these keys: blocks ascending, numbers sorted and distinct. */
function expectedRows(keys: string[]): [number, number[]][] {
  const blocks = new Map<number, Set<number>>();
  for (const key of keys) {
    const block = Number(key.slice(0, 6));
    blocks.set(block, (blocks.get(block) ?? new Set()).add(Number(key.slice(6))));
  }
  return [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([block, numbers]) => [block, [...numbers].sort((a, b) => a - b)]);
}

function collect(store: ListKeyStore): [number, number[]][] {
  return decodeCopyRows(Buffer.concat([...store.rows()]));
}

describe('the list grouped into the version table rows (ListKeyStore)', () => {
  it('groups by block, sorts and deduplicates, keeping the edges of every partition and leading zeros', () => {
    const keys = [
      '0304012345',
      '0000000000',
      '9999999999',
      '0009999999', // the last key of partition 000
      '0010000000', // the first of partition 001
      '0304012345', // a duplicate
      '0304010000',
      '0304019999',
      '4510654321',
    ];
    const store = new ListKeyStore(path.join(dir, 'edges'));
    store.addParsed(parsedText(keys));
    expect(collect(store)).toEqual(expectedRows(keys));
    expect(expectedRows(keys)[0]).toEqual([0, [0]]);
    expect(expectedRows(keys).find(([block]) => block === 30401)).toEqual([30401, [0, 2345, 9999]]);
    expect(store.distinct).toBe(8);
  });

  it('gives the same rows when the keys spill to disk, whatever the buffer size', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Spread over the whole key space (a few keys a partition: sorted), and 80,000 in three blocks of
    // partition 451 (many duplicates; more keys than a partition sorts: set in its bitmap).
    const keys = Array.from({ length: 100_000 }, (_, i) =>
      String(i % 5 ? 4510650000 + Math.floor(random() * 30_000) : Math.floor(random() * 1e10)).padStart(
        10,
        '0',
      ),
    );
    const expected = expectedRows(keys);
    for (const capacity of [4999, 5000, 40_000, 200_000]) {
      const prefix = path.join(dir, `spill-${capacity}`);
      const store = new ListKeyStore(prefix, capacity);
      // In pieces, as the parse thread adds them.
      for (let i = 0; i < keys.length; i += 333) {
        store.addParsed(parsedText(keys.slice(i, i + 333)));
      }
      expect(store.spillCount).toBe(Math.floor((keys.length - 1) / capacity));
      expect(collect(store)).toEqual(expected);
      expect(store.distinct).toBe(new Set(keys).size);
    }
    expect((await readdir(dir)).filter((name) => name.startsWith('spill-5000.keys-'))).toHaveLength(19);
  });

  it('hands the rows over in pieces of about a megabyte, never one row split', () => {
    const store = new ListKeyStore(path.join(dir, 'pieces'));
    const keys = Array.from({ length: 400_000 }, (_, i) => String(i * 24_000).padStart(10, '0'));
    store.addParsed(parsedText(keys));
    const pieces = [...store.rows()];
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.slice(0, -1).every((piece) => piece.length >= 1 << 20)).toBe(true);
    expect(decodeCopyRows(Buffer.concat(pieces))).toEqual(expectedRows(keys));
  });
});
