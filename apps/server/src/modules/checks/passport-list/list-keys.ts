import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * The list's passports grouped into the version table's rows (`block`, sorted distinct `numbers`)
 * in bounded memory, without a sort in the database (issue #30, docs/datasets.md).
 *
 * A passport's 10 digits are a key k < 10^10; its partition is k / 10^7 (the first three digits),
 * its offset in the partition k % 10^7. Keys are buffered (`capacity` of them) and, when the buffer
 * is full, written to a spill file grouped by partition (a counting sort: one pass, no comparisons).
 * At the end each partition is gathered from every spill into a bitmap of its 10^7 possible keys
 * (1.25 MB): duplicates fall together, and the set bits read in order are the partition's blocks
 * (k / 10000) with their numbers (k % 10000), ascending. The rows go out as binary COPY.
 */
export const PARTITIONS = 1000;
const PARTITION_KEYS = 10_000_000;
const BLOCK_KEYS = 10_000;
const BLOCKS_PER_PARTITION = PARTITION_KEYS / BLOCK_KEYS;
/** Keys buffered before a spill: 4 + 2 bytes each, and 4 more to group them (10 MB in all). */
export const DEFAULT_CAPACITY = 1_000_000;
/** A partition with at most this many keys (spilled and buffered) is sorted, not set in a bitmap. */
const FEW_KEYS = 65_536;
/** Spilled keys are read in pieces of this many bytes. */
const READ_BYTES = 1 << 20;
/** Binary COPY output is handed on in pieces of about this size. */
const OUTPUT_BYTES = 1 << 20;
const INT2_OID = 21;

interface Spill {
  path: string;
  /** Start of each partition's offsets in the file, in keys; [PARTITIONS] is the end. */
  starts: Uint32Array;
}

export class ListKeyStore {
  private readonly spillPath: string;
  private readonly capacity: number;
  private readonly offsets: Uint32Array;
  private readonly partitions: Uint16Array;
  private size = 0;
  private readonly spills: Spill[] = [];
  private readonly grouped: Uint32Array;
  private readonly readBuffer = new Uint32Array(READ_BYTES / 4);
  /** Distinct passports written by rows() so far (all of them once it is done). */
  distinct = 0;

  /**
   * @param spillPath the spill files' path prefix (`<prefix>.keys-<n>`); the caller removes them
   *   (removeSpills in passport-list-import.ts) whatever happens.
   */
  constructor(spillPath: string, capacity = DEFAULT_CAPACITY) {
    this.spillPath = spillPath;
    this.capacity = capacity;
    this.offsets = new Uint32Array(capacity);
    this.partitions = new Uint16Array(capacity);
    this.grouped = new Uint32Array(capacity);
  }

  /** The keys of COPY text from PassportListParser (`DDDDDDDDDD\n` each, digits checked). */
  addParsed(text: Uint8Array): void {
    for (let at = 0; at + 11 <= text.length; at += 11) {
      const partition = (text[at]! - 48) * 100 + (text[at + 1]! - 48) * 10 + (text[at + 2]! - 48);
      let offset = 0;
      for (let i = at + 3; i < at + 10; i++) {
        offset = offset * 10 + (text[i]! - 48);
      }
      this.add(partition, offset);
    }
  }

  add(partition: number, offset: number): void {
    if (this.size === this.capacity) {
      this.spill();
    }
    this.partitions[this.size] = partition;
    this.offsets[this.size] = offset;
    this.size++;
  }

  /** Spill files written so far (tests look at them). */
  get spillCount(): number {
    return this.spills.length;
  }

  /** The buffered keys, grouped by partition (counting sort), as the next spill file. */
  private spill(): void {
    const { starts, grouped } = this.groupBuffered();
    const path = `${this.spillPath}.keys-${this.spills.length}`;
    const fd = openSync(path, 'w');
    try {
      const bytes = new Uint8Array(grouped.buffer, 0, this.size * 4);
      for (let written = 0; written < bytes.length; ) {
        written += writeSync(fd, bytes, written);
      }
    } finally {
      closeSync(fd);
    }
    this.spills.push({ path, starts });
    this.size = 0;
  }

  private groupBuffered(): { starts: Uint32Array; grouped: Uint32Array } {
    const starts = new Uint32Array(PARTITIONS + 1);
    for (let i = 0; i < this.size; i++) {
      starts[this.partitions[i]! + 1]!++;
    }
    for (let p = 0; p < PARTITIONS; p++) {
      starts[p + 1]! += starts[p]!;
    }
    const next = starts.slice(0, PARTITIONS);
    // One buffer for every spill: a new one each time would leave the process's RSS holding the
    // freed ones (a worker thread's allocations come from an arena of its own).
    const grouped = this.grouped.subarray(0, this.size);
    for (let i = 0; i < this.size; i++) {
      grouped[next[this.partitions[i]!]!++] = this.offsets[i]!;
    }
    return { starts, grouped };
  }

  /**
   * The version table's rows as binary COPY (header first, trailer last), in block order, in pieces
   * of about a megabyte (whole partitions). Reads every spill once per partition.
   */
  *rows(): Generator<Uint8Array> {
    const memory = this.groupBuffered();
    const out = new CopyWriter();
    out.header();
    const fds = this.spills.map((spill) => openSync(spill.path, 'r'));
    const bitmap = new Uint32Array(PARTITION_KEYS / 32);
    const few = new Uint32Array(FEW_KEYS);
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        let total = memory.starts[p + 1]! - memory.starts[p]!;
        for (const { starts } of this.spills) {
          total += starts[p + 1]! - starts[p]!;
        }
        if (total === 0) {
          continue;
        }
        // A partition of few keys is sorted; a bigger one (up to every key it can hold, and any
        // number of duplicates) is set in the bitmap, whose bits read in order are sorted already.
        const inBitmap = total > FEW_KEYS;
        let gathered = 0;
        const take = (offsets: Uint32Array) => {
          if (inBitmap) {
            for (let i = 0; i < offsets.length; i++) {
              bitmap[offsets[i]! >>> 5]! |= 1 << (offsets[i]! & 31);
            }
          } else {
            few.set(offsets, gathered);
            gathered += offsets.length;
          }
        };
        if (inBitmap) {
          bitmap.fill(0);
        }
        for (let s = 0; s < this.spills.length; s++) {
          this.readSpill(fds[s]!, s, p, take);
        }
        take(memory.grouped.subarray(memory.starts[p]!, memory.starts[p + 1]!));
        this.partitionRows(p, out, (visit) =>
          inBitmap ? visitBitmap(bitmap, visit) : visitSorted(few, gathered, visit),
        );
        if (out.length >= OUTPUT_BYTES) {
          yield out.take();
        }
      }
    } finally {
      for (const fd of fds) {
        closeSync(fd);
      }
    }
    out.trailer();
    yield out.take();
  }

  /** Partition `p`'s keys in spill `s`, a piece at a time. */
  private readSpill(fd: number, s: number, p: number, take: (offsets: Uint32Array) => void) {
    const { starts, path } = this.spills[s]!;
    let position = starts[p]! * 4;
    const end = starts[p + 1]! * 4;
    while (position < end) {
      const bytes = Math.min(end - position, READ_BYTES);
      const piece = new Uint8Array(this.readBuffer.buffer, 0, bytes);
      for (let got = 0; got < bytes; ) {
        const n = readSync(fd, piece, got, bytes - got, position + got);
        if (n === 0) {
          throw new Error(`spill file ${path} is shorter than written`);
        }
        got += n;
      }
      take(new Uint32Array(this.readBuffer.buffer, 0, bytes / 4));
      position += bytes;
    }
  }

  /** A partition's keys (offsets ascending, each once, told to `visit`) as rows, one per block. */
  private partitionRows(
    partition: number,
    out: CopyWriter,
    offsets: (visit: (offset: number) => void) => void,
  ): void {
    const numbers: number[] = [];
    let block = -1;
    const flush = () => {
      if (numbers.length > 0) {
        out.row(partition * BLOCKS_PER_PARTITION + block, numbers);
        this.distinct += numbers.length;
        numbers.length = 0;
      }
    };
    offsets((offset) => {
      const offsetBlock = Math.floor(offset / BLOCK_KEYS);
      if (offsetBlock !== block) {
        flush();
        block = offsetBlock;
      }
      numbers.push(offset - offsetBlock * BLOCK_KEYS);
    });
    flush();
  }
}

/** The set bits' positions, ascending. */
function visitBitmap(bitmap: Uint32Array, visit: (offset: number) => void): void {
  for (let w = 0; w < bitmap.length; w++) {
    let word = bitmap[w]!;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      visit(w * 32 + 31 - Math.clz32(low));
    }
  }
}

/** The first `count` offsets sorted, each once. */
function visitSorted(offsets: Uint32Array, count: number, visit: (offset: number) => void): void {
  const sorted = offsets.subarray(0, count).sort();
  for (let i = 0; i < count; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) {
      visit(sorted[i]!);
    }
  }
}

/**
 * PostgreSQL's binary COPY of `(block int, numbers int2[])`: a signature and two zero words, then
 * per row the field count, each field's length and value (an array: dimensions, null flag, element
 * type, length, lower bound, then each element's length and value), and -1 at the end.
 */
class CopyWriter {
  private buffer = new Uint8Array(OUTPUT_BYTES + 64 * 1024);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private room(bytes: number) {
    if (this.length + bytes > this.buffer.length) {
      const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes));
      bigger.set(this.buffer.subarray(0, this.length));
      this.buffer = bigger;
      this.view = new DataView(bigger.buffer);
    }
  }

  header() {
    const signature = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
    this.room(19);
    this.buffer.set(signature, 0);
    this.view.setInt32(11, 0);
    this.view.setInt32(15, 0);
    this.length = 19;
  }

  row(block: number, numbers: readonly number[]) {
    const arrayBytes = 20 + 6 * numbers.length;
    this.room(14 + arrayBytes);
    const v = this.view;
    let at = this.length;
    v.setInt16(at, 2);
    v.setInt32(at + 2, 4);
    v.setInt32(at + 6, block);
    v.setInt32(at + 10, arrayBytes);
    v.setInt32(at + 14, 1);
    v.setInt32(at + 18, 0);
    v.setInt32(at + 22, INT2_OID);
    v.setInt32(at + 26, numbers.length);
    v.setInt32(at + 30, 1);
    at += 34;
    for (const n of numbers) {
      v.setInt32(at, 2);
      v.setInt16(at + 4, n);
      at += 6;
    }
    this.length = at;
  }

  trailer() {
    this.room(2);
    this.view.setInt16(this.length, -1);
    this.length += 2;
  }

  /** The bytes so far, as a copy of their own (to transfer), and the writer emptied. */
  take(): Uint8Array {
    const piece = this.buffer.slice(0, this.length);
    this.length = 0;
    return piece;
  }
}
