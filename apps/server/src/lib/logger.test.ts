import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const nodeBinary = existsSync(path.join(repoRoot, 'node_modules/.bin/node'))
  ? path.join(repoRoot, 'node_modules/.bin/node')
  : process.execPath;
// The logger the app (app.ts) and the workers (worker.ts) write with, in a process of its own.
const program = `import { createLogger } from './apps/server/src/lib/logger.ts';
createLogger('info').info({ items: 3 }, 'Pledgewatch ready');`;
const hasScript = existsSync('/usr/bin/script');

describe('log format (issue #27, item 9)', () => {
  it('writes one JSON object per line when stdout is not a terminal', async () => {
    const { stdout } = await run(nodeBinary, ['--input-type=module', '-e', program], { cwd: repoRoot });
    const line = JSON.parse(stdout.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'Pledgewatch ready', items: 3 });
    expect(typeof line.time).toBe('number');
  });

  it.runIf(hasScript)('writes readable lines when stdout is a terminal', async () => {
    // `script` runs the program on a pseudo-terminal, as a person starting the app in a shell does.
    const command = `${nodeBinary} --input-type=module -e "${program.replaceAll('"', '\\"')}"`;
    const { stdout } = await run('script', ['-qec', command, '/dev/null'], { cwd: repoRoot });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of the terminal
    const text = stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: Pledgewatch ready\r?\n\s+items: 3/m);
    expect(text).not.toContain('{"level"');
  });
});
