import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBoundaries } from '../../../scripts/check-boundaries.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'pledgewatch-architecture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A throwaway source tree: file path (from the tree's root) → content. */
function tree(name: string, files: Record<string, string>): string {
  const root = path.join(scratch, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

describe('module boundaries (scripts/check-boundaries.ts, run by npm run lint)', () => {
  it('the server source keeps them', () => {
    expect(checkBoundaries(path.join(repoRoot, 'apps/server/src'))).toEqual([]);
  });

  it('npm run lint runs the boundary check after Biome', () => {
    const scripts = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts;
    expect(scripts.lint).toContain('biome check .');
    expect(scripts.lint).toContain('node scripts/check-boundaries.ts');
  });

  it('refuses an import of another module’s internal file, allows its index.ts and tests', () => {
    const root = tree('internal', {
      'modules/a/a.service.ts': "import { b } from '../b/b.queries.ts';\nexport const a = b;\n",
      'modules/a/a.routes.ts': "import { b } from '../b/index.ts';\nexport const r = b;\n",
      'modules/a/a.test.ts': "import { b } from '../b/b.queries.ts';\n",
      'modules/b/b.queries.ts': 'export const b = 1;\n',
      'modules/b/index.ts': "export { b } from './b.queries.ts';\n",
    });
    expect(checkBoundaries(root)).toEqual([
      'modules/a/a.service.ts: imports modules/b/b.queries.ts; another module is reached only through modules/b/index.ts',
    ]);
  });

  it('refuses a cycle between modules even through their public entries', () => {
    const root = tree('cycle', {
      'modules/a/a.service.ts': "import { b } from '../b/index.ts';\nexport const a = () => b;\n",
      'modules/a/index.ts': "export { a } from './a.service.ts';\n",
      'modules/b/b.service.ts': "import { a } from '../a/index.ts';\nexport const b = () => a;\n",
      'modules/b/index.ts': "export { b } from './b.service.ts';\n",
    });
    expect(checkBoundaries(root)).toEqual(['module import cycle: a -> b -> a']);
  });

  it('refuses a shared layer (lib, db, config) importing a module or plugin', () => {
    const root = tree('layers', {
      'lib/helper.ts': "import type { X } from '../modules/a/index.ts';\nexport type Y = X;\n",
      'db/pool.ts': "import { p } from '../plugins/auth.ts';\nexport const q = p;\n",
      'modules/a/index.ts': 'export type X = 1;\n',
      'plugins/auth.ts': 'export const p = 1;\n',
    });
    expect(checkBoundaries(root)).toEqual([
      'db/pool.ts: the shared layer db/ must not import plugins/auth.ts',
      'lib/helper.ts: the shared layer lib/ must not import modules/a/index.ts',
    ]);
  });
});

describe('module boundaries of the outer layers', () => {
  it('refuses plugins/, jobs/ and the composition roots reaching into a module, allows its index.ts', () => {
    const root = tree('outer', {
      'modules/a/index.ts': "export { a } from './a.service.ts';\n",
      'modules/a/a.service.ts': 'export const a = 1;\n',
      'plugins/p.ts': "import { a } from '../modules/a/a.service.ts';\nexport const p = a;\n",
      'jobs/registry.ts': "import { a } from '../modules/a/a.service.ts';\nexport const j = a;\n",
      'app.ts': "import { a } from './modules/a/a.service.ts';\nexport const x = a;\n",
      'worker.ts': "import { a } from './modules/a/index.ts';\nexport const w = a;\n",
    });
    expect(checkBoundaries(root)).toEqual([
      'app.ts: imports modules/a/a.service.ts; a composition root reaches a module only through modules/a/index.ts',
      'jobs/registry.ts: imports modules/a/a.service.ts; jobs/ reaches a module only through modules/a/index.ts',
      'plugins/p.ts: imports modules/a/a.service.ts; plugins/ reaches a module only through modules/a/index.ts',
    ]);
  });

  it('refuses production code importing test helpers, the demo, app.ts or wiring.ts; the roots may', () => {
    const root = tree('production', {
      'modules/a/index.ts': "export { a } from './a.service.ts';\n",
      'modules/a/a.service.ts': "import { h } from './testing/helpers.ts';\nexport const a = h;\n",
      'modules/a/testing/helpers.ts': "import { x } from '../../../app.ts';\nexport const h = x;\n",
      'modules/a/a.test.ts': "import { h } from './testing/helpers.ts';\n",
      'lib/l.ts': "import { d } from '../demo/seed.ts';\nexport const l = d;\n",
      'plugins/p.ts': "import { registerModules } from '../wiring.ts';\nexport const p = registerModules;\n",
      'demo/seed.ts': 'export const d = 1;\n',
      'wiring.ts': 'export function registerModules() {}\n',
      'app.ts': "import { registerModules } from './wiring.ts';\nexport const x = registerModules;\n",
      'server.ts':
        "import { x } from './app.ts';\nimport { d } from './demo/seed.ts';\nexport const s = [x, d];\n",
    });
    expect(checkBoundaries(root)).toEqual([
      'lib/l.ts: imports demo/seed.ts; production code never imports the demo',
      'modules/a/a.service.ts: imports modules/a/testing/helpers.ts; production code never imports test code',
      'plugins/p.ts: imports wiring.ts; production code never imports a composition root',
    ]);
  });

  it('refuses a computed dynamic import unless the line before says why', () => {
    const root = tree('computed', {
      'lib/a.ts': 'export const load = (name: string) => import(name);\n',
      'lib/b.ts':
        '// Computed import: a platform package by name.\nexport const load = (name: string) => import(name);\n',
      'lib/c.ts':
        "export const load = () => import('./a.ts');\n/** The package (as the import (prose) says). */\n",
    });
    expect(checkBoundaries(root)).toEqual([
      'lib/a.ts:1: a computed dynamic import; import a literal path, or say why on the line before (// Computed import: ...)',
    ]);
  });
});

describe('shared setup written once', () => {
  it('only lib/pdf-fonts.ts locates the DejaVu fonts the PDFs embed', () => {
    const found = execFileSync(
      'grep',
      ['-rl', '--include=*.ts', '--exclude=*.test.ts', 'dejavu-fonts-ttf', 'apps/server/src'],
      {
        cwd: repoRoot,
        encoding: 'utf8',
      },
    );
    expect(found.trim().split('\n')).toEqual(['apps/server/src/lib/pdf-fonts.ts']);
  });
});

describe('file size (scripts/check-boundaries.ts)', () => {
  const lines = (count: number) => 'export const x = 1;\n'.repeat(count);

  it('refuses a route file over 300 lines and another file over 500 unless its first line says why', () => {
    const root = tree('sizes', {
      'modules/a/a.routes.ts': lines(301),
      'modules/a/a.service.ts': lines(501),
      'modules/a/a.queries.ts': `// Over 500 lines by design: the SQL query catalogue of a.\n${lines(600)}`,
      'modules/a/b.routes.ts': lines(300),
      'modules/a/a.test.ts': lines(900),
    });
    expect(checkBoundaries(root)).toEqual([
      'modules/a/a.routes.ts: 301 lines; a route file stays within 300, split it by what it serves',
      'modules/a/a.service.ts: 501 lines; split it by what it does, or justify it on its first line (// Over 500 lines by design: ...)',
    ]);
  });
});

describe('Biome noImportCycles (npm run lint)', () => {
  /** Lints a directory with the repository's linter rules; returns the exit code and the output. */
  function lintWithRepoRules(root: string): { code: number; output: string } {
    const config = JSON.parse(readFileSync(path.join(repoRoot, 'biome.json'), 'utf8'));
    writeFileSync(
      path.join(root, 'biome.json'),
      JSON.stringify({ linter: config.linter, javascript: config.javascript, formatter: config.formatter }),
    );
    try {
      const output = execFileSync(path.join(repoRoot, 'node_modules/.bin/biome'), ['lint', '.'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      });
      return { code: 0, output };
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string };
      return { code: failed.status, output: `${failed.stdout}${failed.stderr}` };
    }
  }

  it('fails on a new import cycle, type-only imports included', () => {
    const root = tree('biome-cycle', {
      'first.ts':
        "import type { Second } from './second.ts';\nexport interface First {\n  second?: Second;\n}\n",
      'second.ts':
        "import type { First } from './first.ts';\nexport interface Second {\n  first?: First;\n}\n",
    });
    const result = lintWithRepoRules(root);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('lint/suspicious/noImportCycles');
  });

  it('passes the same files once the cycle is cut', () => {
    const root = tree('biome-no-cycle', {
      'first.ts':
        "import type { Second } from './second.ts';\nexport interface First {\n  second?: Second;\n}\n",
      'second.ts': 'export interface Second {\n  name: string;\n}\n',
    });
    expect(lintWithRepoRules(root)).toMatchObject({ code: 0 });
  });
});

describe('Biome rules that keep functions short and promises handled (biome.json, run by npm run lint)', () => {
  /** Runs the repository's Biome rules over a planted tree; the rule and file of each error. */
  function lint(files: Record<string, string>): string[] {
    const {
      $schema: _schema,
      vcs: _vcs,
      files: _files,
      ...config
    } = JSON.parse(readFileSync(path.join(repoRoot, 'biome.json'), 'utf8'));
    const root = tree(`lint-${Object.keys(files).join('-').replace(/\W/g, '_')}`, {
      ...files,
      'biome.json': JSON.stringify(config),
    });
    let output = '';
    try {
      execFileSync(path.join(repoRoot, 'node_modules/.bin/biome'), ['lint', '--reporter=github', '.'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    return [...output.matchAll(/title=lint\/([\w/]+),file=[^,]*\/(src\/[^,]+),/g)].map(
      ([, rule, file]) => `${rule} ${file}`,
    );
  }
  const longFunction = `export function long(): number {\n  let total = 0;\n${Array.from(
    { length: 151 },
    (_, i) => `  total += ${i};`,
  ).join('\n')}\n  return total;\n}\n`;

  it('refuses a function over 150 lines, except in tests (a suite is a list of cases, not a function to split)', () => {
    expect(lint({ 'src/long.ts': longFunction, 'src/long.test.ts': longFunction })).toEqual([
      'complexity/noExcessiveLinesPerFunction src/long.ts',
    ]);
  });

  it('refuses a promise neither awaited nor marked void', () => {
    const source = `export async function work(): Promise<number> {\n  return 1;\n}\n
export function floating(): void {\n  work();\n}\n
export async function awaited(): Promise<void> {\n  await work();\n}\n
export function dropped(): void {\n  void work();\n}\n`;
    expect(lint({ 'src/float.ts': source })).toEqual(['nursery/noFloatingPromises src/float.ts']);
  });
});
