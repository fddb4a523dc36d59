/**
 * Server module boundaries, run by `npm run lint` (Biome's noImportCycles catches file-level cycles;
 * this catches what Biome cannot express with relative paths):
 * 1. a file in `modules/<a>/` imports another module `<b>` only through `modules/<b>/index.ts`;
 * 2. the modules' dependency graph (from those imports) has no cycle;
 * 3. the shared layers (`lib/`, `db/`, `config/`) import no module, plugin or job;
 * 4. file size: a route file stays within 300 lines, any other file within 500 unless its first line
 *    says why (`// Over 500 lines by design: ...`, for SQL query catalogues);
 * 5. `plugins/`, `jobs/` and the composition roots (`app.ts`, `server.ts`, `worker.ts`, `cli.ts`,
 *    `wiring.ts`) also reach a module only through its `index.ts`;
 * 6. production code never imports test code (`testing/` folders), the demo (`demo/`), `app.ts` or
 *    `wiring.ts`: only the composition roots may (server.ts seeds the demo, the roots build the app);
 * 7. no computed dynamic import (`import(name)`): what a file loads must be visible to these checks,
 *    unless the line before says why (`// Computed import: ...`, a platform package by name).
 * Tests (`*.test.ts`) and test helpers (`testing/`) may reach into any module to seed and inspect data,
 * so they are not checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const IMPORT_PATTERN = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const SHARED_LAYERS = ['lib', 'db', 'config'];
const UPPER_LAYERS = ['modules', 'plugins', 'jobs'];
const MAX_LINES = 500;
const MAX_ROUTE_LINES = 300;
const SIZE_EXCEPTION = '// Over 500 lines by design:';
const COMPOSITION_ROOTS = ['app.ts', 'server.ts', 'worker.ts', 'cli.ts', 'wiring.ts'];
// Biome writes a dynamic import as `import(`; `import (` is prose in a comment.
const COMPUTED_IMPORT = /(?<![\w.])import\((?!\s*['"`])/g;
const COMPUTED_IMPORT_EXCEPTION = '// Computed import:';

/** Test code: test files and the helpers in any `testing/` folder. */
const isTestCode = (fromRoot: string) =>
  fromRoot.endsWith('.test.ts') || fromRoot.split('/').includes('testing');

/** What production code outside the composition roots may not import, or null. */
function forbiddenTarget(target: string): string | null {
  if (target.split('/').includes('testing')) {
    return 'test code';
  }
  if (target.startsWith('demo/')) {
    return 'the demo';
  }
  if (target === 'app.ts' || target === 'wiring.ts') {
    return 'a composition root';
  }
  return null;
}

function listSourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      files.push(...listSourceFiles(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && entry.name !== 'testing') {
      files.push(full);
    }
  }
  return files;
}

/** Every relative import of a file, resolved to a path relative to the source root. */
export function relativeImports(source: string, fileFromRoot: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT_PATTERN)) {
    found.push(path.posix.normalize(path.posix.join(path.posix.dirname(fileFromRoot), match[1]!)));
  }
  return found;
}

function moduleOf(fileFromRoot: string): string | null {
  const parts = fileFromRoot.split('/');
  return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : null;
}

function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'visiting') {
        return [...stack.slice(stack.indexOf(next)), next];
      }
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) {
          return cycle;
        }
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) {
        return cycle;
      }
    }
  }
  return null;
}

/** The boundary violations under a server source root (`apps/server/src`), one message each. */
export function checkBoundaries(srcRoot: string): string[] {
  const problems: string[] = [];
  const graph = new Map<string, Set<string>>();
  for (const file of listSourceFiles(srcRoot).sort()) {
    const fromRoot = path.relative(srcRoot, file).split(path.sep).join('/');
    const ownModule = moduleOf(fromRoot);
    const layer = fromRoot.split('/')[0]!;
    if (isTestCode(fromRoot)) {
      continue;
    }
    const isRoot = COMPOSITION_ROOTS.includes(fromRoot);
    const source = readFileSync(file, 'utf8');
    const lines = source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
    const sourceLines = source.split('\n');
    for (const match of source.matchAll(COMPUTED_IMPORT)) {
      const lineNo = source.slice(0, match.index).split('\n').length;
      if (!sourceLines[lineNo - 2]?.trim().startsWith(COMPUTED_IMPORT_EXCEPTION)) {
        problems.push(
          `${fromRoot}:${lineNo}: a computed dynamic import; import a literal path, or say why on the line before (${COMPUTED_IMPORT_EXCEPTION} ...)`,
        );
      }
    }
    if (fromRoot.endsWith('.routes.ts') && lines > MAX_ROUTE_LINES) {
      problems.push(
        `${fromRoot}: ${lines} lines; a route file stays within ${MAX_ROUTE_LINES}, split it by what it serves`,
      );
    } else if (lines > MAX_LINES && !source.startsWith(SIZE_EXCEPTION)) {
      problems.push(
        `${fromRoot}: ${lines} lines; split it by what it does, or justify it on its first line (${SIZE_EXCEPTION} ...)`,
      );
    }
    for (const target of relativeImports(source, fromRoot)) {
      const targetLayer = target.split('/')[0]!;
      if (SHARED_LAYERS.includes(layer) && UPPER_LAYERS.includes(targetLayer)) {
        problems.push(`${fromRoot}: the shared layer ${layer}/ must not import ${target}`);
      }
      const forbidden = isRoot || fromRoot.startsWith('demo/') ? null : forbiddenTarget(target);
      if (forbidden) {
        problems.push(`${fromRoot}: imports ${target}; production code never imports ${forbidden}`);
      }
      const targetModule = moduleOf(target);
      if (targetModule && !ownModule && (isRoot || layer === 'plugins' || layer === 'jobs')) {
        if (target !== `modules/${targetModule}/index.ts`) {
          problems.push(
            `${fromRoot}: imports ${target}; ${isRoot ? 'a composition root' : `${layer}/`} reaches a module only through modules/${targetModule}/index.ts`,
          );
        }
        continue;
      }
      if (!ownModule || !targetModule || targetModule === ownModule) {
        continue;
      }
      if (target !== `modules/${targetModule}/index.ts`) {
        problems.push(
          `${fromRoot}: imports ${target}; another module is reached only through modules/${targetModule}/index.ts`,
        );
      }
      if (!graph.has(ownModule)) {
        graph.set(ownModule, new Set());
      }
      graph.get(ownModule)!.add(targetModule);
    }
  }
  const cycle = findCycle(graph);
  if (cycle) {
    problems.push(`module import cycle: ${cycle.join(' -> ')}`);
  }
  return problems;
}

if (import.meta.main) {
  const root = path.resolve(import.meta.dirname, '../apps/server/src');
  const problems = checkBoundaries(root);
  for (const problem of problems) {
    console.error(problem);
  }
  if (problems.length > 0) {
    console.error(`\n${problems.length} module boundary problem(s); see docs/architecture.md.`);
    process.exit(1);
  }
  console.log('Module boundaries: ok');
}
