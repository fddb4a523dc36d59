/**
 * The embedded database's backup file: one tar of the data folder's files, then a manifest with each
 * file's size and SHA-256, which restore checks before the files take the data folder's place.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { BackupError } from './backup-error.ts';

export const MANIFEST_NAME = 'backup-manifest.json';
export const ARCHIVE_FORMAT = 'pledgewatch-embedded-backup';

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  version: 1;
  /** PG_VERSION of the data folder: the major version that can start it. */
  postgresVersion: string;
  createdAt: string;
  /** `online`: taken through pg_backup_start/pg_backup_stop while the server ran. */
  method: 'online';
  startLsn: string;
  stopLsn: string;
  directories: string[];
  files: ManifestFile[];
}

const CHUNK = 1024 * 1024;

/** Writes a tar at `<file>.partial`, renamed to `file` once complete and on disk. */
export async function writeArchive(
  file: string,
  fill: (archive: ArchiveWriter) => Promise<Omit<BackupManifest, 'files' | 'directories'>>,
): Promise<BackupManifest> {
  const partial = `${file}.partial`;
  const pack = tar.pack();
  const output = createWriteStream(partial, { mode: 0o600 });
  const written = pipeline(pack, output);
  const writer = new ArchiveWriter(pack);
  try {
    const head = await fill(writer);
    const manifest: BackupManifest = { ...head, directories: writer.directories, files: writer.files };
    await writer.addBuffer(MANIFEST_NAME, Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`), false);
    pack.finalize();
    await written;
    const handle = await open(partial, 'r+');
    await handle.sync().finally(() => handle.close());
    await rename(partial, file);
    return manifest;
  } catch (error) {
    pack.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}

async function writeTo(stream: Writable, chunk: Buffer): Promise<void> {
  if (!stream.write(chunk)) {
    await once(stream, 'drain');
  }
}

/** A tar entry and the promise of its end (tar-stream calls back once the entry is in the archive). */
function startEntry(pack: tar.Pack, header: tar.Headers): { stream: Writable; done: Promise<void> } {
  let stream: Writable | undefined;
  const done = new Promise<void>((resolve, reject) => {
    stream = pack.entry(header, (error) => (error ? reject(error) : resolve()));
  });
  return { stream: stream!, done };
}

export class ArchiveWriter {
  readonly files: ManifestFile[] = [];
  readonly directories: string[] = [];
  readonly #pack: tar.Pack;

  constructor(pack: tar.Pack) {
    this.#pack = pack;
  }

  addDirectory(name: string): void {
    this.directories.push(name);
    this.#pack.entry({ name: `${name}/`, type: 'directory', mode: 0o700 });
  }

  /** A file made here (backup_label); `listed: false` for the manifest, which does not list itself. */
  async addBuffer(name: string, content: Buffer, listed = true): Promise<void> {
    if (listed) {
      this.files.push({
        path: name,
        size: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
      });
    }
    const entry = startEntry(this.#pack, { name, type: 'file', size: content.length, mode: 0o600 });
    await writeTo(entry.stream, content);
    entry.stream.end();
    await entry.done;
  }

  /**
   * Adds a file as it is now, `size` bytes of it: a file that a running server shortens meanwhile is
   * padded with zeros, one it extends is cut (WAL replay rewrites both, as with pg_basebackup).
   * Returns false when the file is gone (a table dropped meanwhile).
   */
  async addFile(name: string, source: string, size: number): Promise<boolean> {
    const handle = await open(source, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        return undefined;
      }
      throw error;
    });
    if (!handle) {
      return false;
    }
    const hash = createHash('sha256');
    try {
      const entry = startEntry(this.#pack, { name, type: 'file', size, mode: 0o600 });
      let done = 0;
      while (done < size) {
        const buffer = Buffer.alloc(Math.min(CHUNK, size - done));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, done);
        // Past the end: the zeros Buffer.alloc left.
        const chunk = bytesRead === 0 ? buffer : buffer.subarray(0, bytesRead);
        hash.update(chunk);
        await writeTo(entry.stream, chunk);
        done += chunk.length;
      }
      entry.stream.end();
      await entry.done;
    } finally {
      await handle.close();
    }
    this.files.push({ path: name, size, sha256: hash.digest('hex') });
    return true;
  }
}

/** A name inside the archive that stays under its root: relative, no `..`, nothing odd. */
function safeName(name: string): string {
  const clean = name.replace(/\/$/, '');
  if (
    clean === '' ||
    path.posix.isAbsolute(clean) ||
    clean.split('/').some((part) => part === '' || part === '.' || part === '..') ||
    clean.includes('\0')
  ) {
    throw new BackupError(`Файл резервной копии повреждён: недопустимое имя «${name}» внутри`);
  }
  return clean;
}

/**
 * Unpacks the archive's entries under `prefix/` into `target` (which must not exist yet), checking
 * every file against the manifest: a missing, extra, resized or altered file fails the restore
 * before anything takes the data folder's place. Returns the manifest.
 */
export async function extractArchive(file: string, prefix: string, target: string): Promise<BackupManifest> {
  await mkdir(target, { mode: 0o700 });
  const seen = new Map<string, ManifestFile>();
  let manifest: BackupManifest | undefined;
  const extract = tar.extract();
  const input = createReadStream(file);
  input.on('error', (error) => extract.destroy(error));
  input.pipe(extract);
  try {
    for await (const entry of extract) {
      const name = safeName(entry.header.name);
      if (name === MANIFEST_NAME && entry.header.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) {
          chunks.push(chunk);
        }
        manifest = parseManifest(Buffer.concat(chunks).toString('utf8'));
        continue;
      }
      if (name !== prefix && !name.startsWith(`${prefix}/`)) {
        throw new BackupError(`Файл резервной копии повреждён: лишний файл «${name}» внутри`);
      }
      const destination = path.join(target, name.slice(prefix.length));
      if (entry.header.type === 'directory') {
        await mkdir(destination, { recursive: true, mode: 0o700 });
        entry.resume();
        continue;
      }
      if (entry.header.type !== 'file') {
        throw new BackupError(`Файл резервной копии повреждён: «${name}» не обычный файл`);
      }
      await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
      const hash = createHash('sha256');
      let size = 0;
      const handle = await open(destination, 'wx', 0o600);
      try {
        for await (const chunk of entry as AsyncIterable<Buffer>) {
          hash.update(chunk);
          size += chunk.length;
          await handle.write(chunk);
        }
      } finally {
        await handle.close();
      }
      seen.set(name, { path: name, size, sha256: hash.digest('hex') });
    }
  } finally {
    input.destroy();
  }
  if (!manifest) {
    throw new BackupError(
      'Файл резервной копии неполный: в конце нет описи файлов (копия оборвалась или это не копия Pledgewatch)',
    );
  }
  for (const expected of manifest.files) {
    const actual = seen.get(expected.path);
    if (!actual || actual.size !== expected.size || actual.sha256 !== expected.sha256) {
      throw new BackupError(
        `Файл резервной копии повреждён: ${expected.path} ${actual ? 'не совпадает с контрольной суммой' : 'отсутствует'}`,
      );
    }
    seen.delete(expected.path);
  }
  const extra = [...seen.keys()][0];
  if (extra) {
    throw new BackupError(`Файл резервной копии повреждён: файл ${extra} не указан в описи`);
  }
  return manifest;
}

function parseManifest(text: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BackupError('Файл резервной копии повреждён: опись файлов не читается');
  }
  if (manifest?.format !== ARCHIVE_FORMAT || manifest.version !== 1 || !Array.isArray(manifest.files)) {
    throw new BackupError('Файл не является резервной копией встроенной базы Pledgewatch');
  }
  return manifest;
}
