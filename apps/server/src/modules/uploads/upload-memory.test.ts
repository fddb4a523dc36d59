import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.join(import.meta.dirname, '../../../../..');

describe('memory of the processes that run uploads (issue #15)', () => {
  it('the app and the worker start with a capped young generation, as the portfolio benchmark measures them', async () => {
    const { scripts } = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Without the cap V8 grows the young generation to 2 × 64 MB during a long import: the peak
    // RSS of a million-row upload passed 300 MB, and grew with the file.
    for (const script of ['start:server', 'worker']) {
      expect(scripts[script]).toMatch(/^exec node --max-semi-space-size=16 /);
    }
    const bench = await readFile(path.join(repoRoot, 'bench/portfolio.bench.ts'), 'utf8');
    expect(bench).toContain("IMPORTING_PROCESS_FLAGS = ['--max-semi-space-size=16']");
  });
});
