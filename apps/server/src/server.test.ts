import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedServerPid, findFreePort } from './db/embedded.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const nodeBinary = existsSync(path.join(repoRoot, 'node_modules/.bin/node'))
  ? path.join(repoRoot, 'node_modules/.bin/node')
  : process.execPath;
const isRoot = process.getuid?.() === 0;

const temp: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
    }
  }
  for (const dir of temp) {
    await rm(dir, { recursive: true, force: true });
  }
});

async function tempDir(mode = 0o755): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-server-test-'));
  await chmod(dir, mode);
  temp.push(dir);
  return dir;
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm run start:server` as a real OS process on an embedded PostgreSQL in `dataDir`. */
async function startServer(dataDir: string, port: number): Promise<Started> {
  const child = spawn(nodeBinary, [path.join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * `npm start` as a service manager runs it: the repository's own `start` and `start:server` scripts,
 * through npm and its shells, in a folder that links to this repository. Only the web build is left
 * out (`npm run build` → `true`): it takes a minute and has nothing to do with signals.
 */
async function startWithNpm(dataDir: string, port: number): Promise<Started> {
  const { scripts } = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const folder = await tempDir();
  for (const name of ['apps', 'packages', 'node_modules']) {
    await symlink(path.join(repoRoot, name), path.join(folder, name));
  }
  const start = scripts.start!.replace('npm run build', 'true');
  expect(start).not.toBe(scripts.start);
  await writeFile(
    path.join(folder, 'package.json'),
    JSON.stringify({
      name: 'pledgewatch-npm-start',
      private: true,
      type: 'module',
      scripts: { start, 'start:server': scripts['start:server'] },
    }),
  );
  const child = spawn('npm', ['start'], {
    cwd: folder,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function waitUntilRunning(started: Started): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!started.output().includes('Pledgewatch is running')) {
    if (started.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the server did not start:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const logLevels = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });

// These start their own embedded PostgreSQL whatever TEST_DB says: once per `npm run test:unit` is enough.
describe.skipIf(process.env.TEST_DB === 'server')('server process', () => {
  it('SIGTERM shuts down in order: exit code 0, nothing logged as an error, PostgreSQL stopped', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const port = await findFreePort();
    const server = await startServer(dataDir, port);
    await waitUntilRunning(server);
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/build`);
    expect(response.status).toBeLessThan(500);
    const postgres = embeddedServerPid(dataDir);
    expect(postgres).toBeDefined();

    server.child.kill('SIGTERM');
    // A second signal during the shutdown (a supervisor signalling the whole group) changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const errors = logLevels(server.output()).filter((line) => line.level >= 50);
    expect(errors).toEqual([]);
    // A job-queue connection still closing when PostgreSQL stops is logged at info, never as an error.
    expect(
      logLevels(server.output()).filter((line) => line.level >= 40 && /terminat/.test(JSON.stringify(line))),
    ).toEqual([]);
    expect(embeddedServerPid(dataDir)).toBeUndefined();
  });

  it('SIGTERM to `npm start` (as a service manager sends it) stops the server and its PostgreSQL', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const port = await findFreePort();
    const started = await startWithNpm(dataDir, port);
    await waitUntilRunning(started);
    const postgres = embeddedServerPid(dataDir);
    expect(postgres).toBeDefined();
    expect(await portOpen(port)).toBe(true);

    // Only the npm process, not its group: what `systemctl stop` does with KillMode=process and what
    // `kill <pid>` does by hand.
    started.child.kill('SIGTERM');
    await started.exited;
    const deadline = Date.now() + 30_000;
    while ((await portOpen(port)) || embeddedServerPid(dataDir) !== undefined) {
      if (Date.now() > deadline) {
        throw new Error(`still running after SIGTERM to npm:\n${started.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(started.output()).toContain('SIGTERM: shutting down');
    expect(logLevels(started.output()).filter((line) => line.level >= 50)).toEqual([]);
  });

  it('an app killed with SIGKILL starts again on the same DATA_DIR (its orphaned PostgreSQL is stopped)', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const port = await findFreePort();
    const first = await startServer(dataDir, port);
    await waitUntilRunning(first);
    const orphan = embeddedServerPid(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    // PostgreSQL outlives the killed app: it is in its own process group.
    expect(embeddedServerPid(dataDir)).toBe(orphan);

    const second = await startServer(dataDir, port);
    await waitUntilRunning(second);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/build`)).status).toBeLessThan(500);
    expect(embeddedServerPid(dataDir)).not.toBe(orphan);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it.runIf(isRoot)(
    'as root, DATA_DIR inside a folder the postgres user cannot enter stops with one sentence',
    { timeout: 60_000 },
    async () => {
      const parent = await tempDir(0o700); // as `mktemp -d` makes it
      const server = await startServer(path.join(parent, 'data'), await findFreePort());
      expect(await server.exited).toBe(1);
      const output = server.output();
      expect(output).toContain(
        `Папка DATA_DIR=${parent}/data недоступна пользователю postgres, от имени которого работает встроенный PostgreSQL: нет права входа в ${parent}; выберите другую папку DATA_DIR или дайте право входа (chmod o+x ${parent})`,
      );
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toMatch(/initdb/);
    },
  );

  it.runIf(isRoot)(
    'as root, a DATA_DIR the operator made with mode 0700 is opened for the postgres user',
    {
      timeout: 120_000,
    },
    async () => {
      const dataDir = await tempDir(0o700);
      const port = await findFreePort();
      const server = await startServer(dataDir, port);
      await waitUntilRunning(server);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    },
  );
});
