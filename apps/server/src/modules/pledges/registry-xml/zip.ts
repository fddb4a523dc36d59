/**
 * ZIP for the registry exchange: a small writer for the export (one XML per notification, deflated)
 * and a guarded reader for the results the registry returns: entry count, declared and actual
 * unpacked sizes and the compression ratio are capped, so a zip bomb is refused with a Russian reason
 * before it is inflated.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { XmlRefusal } from './safe-xml.ts';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** DOS date and time of a moment (the ZIP header's format), in UTC. */
function dosDateTime(at: Date): { date: number; time: number } {
  return {
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
  };
}

/** A ZIP archive of the entries (UTF-8 names, deflate). */
export function writeZip(entries: readonly ZipEntry[], at = new Date()): Buffer {
  const { date, time } = dosDateTime(at);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** Real XML compresses 5–20 times; deflate's ceiling is about 1030. */
  maxRatio: number;
}

export const RESULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 64 * 1024 * 1024,
  maxEntryBytes: 4 * 1024 * 1024,
  maxRatio: 200,
};

const BOMB = 'архив распаковывается в недопустимо большой объём (похоже на «zip-бомбу»)';

/**
 * The archive's entries that pass `wanted`, each read in full within the caps. The directory is
 * checked before anything is inflated; the inflated bytes are counted again as they stream (yauzl
 * also stops an entry that inflates beyond its declared size).
 */
export async function readZip(
  data: Buffer,
  wanted: (name: string) => boolean,
  limits: ZipLimits = RESULT_ZIP_LIMITS,
): Promise<ZipEntry[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true }, (error, file) =>
      error ? reject(new XmlRefusal('архив ZIP повреждён')) : resolve(file),
    ),
  );
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new XmlRefusal(`в архиве слишком много файлов (${zip.entryCount})`);
    }
    const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
      const list: yauzl.Entry[] = [];
      let declared = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/') && wanted(entry.fileName)) {
          declared += entry.uncompressedSize;
          const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
          if (
            entry.uncompressedSize > limits.maxEntryBytes ||
            declared > limits.maxTotalBytes ||
            (entry.uncompressedSize > 64 * 1024 && ratio > limits.maxRatio)
          ) {
            reject(new XmlRefusal(BOMB));
            return;
          }
          list.push(entry);
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve(list));
      zip.on('error', () => reject(new XmlRefusal('архив ZIP повреждён')));
      zip.readEntry();
    });
    const read: ZipEntry[] = [];
    let total = 0;
    for (const entry of entries) {
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (error, s) =>
          error ? reject(new XmlRefusal('архив ZIP повреждён')) : resolve(s),
        ),
      );
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          total += chunk.length;
          if (size > limits.maxEntryBytes || total > limits.maxTotalBytes) {
            throw new XmlRefusal(BOMB);
          }
          chunks.push(chunk);
        }
      } catch (error) {
        throw error instanceof XmlRefusal
          ? error
          : new XmlRefusal(`файл ${entry.fileName} в архиве повреждён`);
      }
      read.push({ name: entry.fileName, data: Buffer.concat(chunks) });
    }
    return read;
  } finally {
    zip.close();
  }
}
