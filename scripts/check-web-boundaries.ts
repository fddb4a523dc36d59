/**
 * The web app's layering, checked by `npm run lint` (Biome's noRestrictedImports cannot say
 * "features/A may not import features/B/**" without one override per feature):
 * - `features/<f>/**` imports only its own feature, `components/`, `lib/`, `config/`, `testing/`
 *   (the route-test harness) and packages;
 *   never another feature nor `app/` (the app layer, `app/` and `main.tsx`, composes features).
 * - `components/`, `lib/`, `config/` and `testing/` import no feature and not `app/`.
 * - Production code never imports `testing/` (the route-test harness is for tests only).
 * - Query keys come from `lib/query-keys.ts`: inside `features/`, a `queryKey` or the key of
 *   `setQueryData` / `getQueryData` is `queryKeys.…` or another query's `…QueryOptions(…).queryKey`;
 *   a literal array, or anything kept in a variable, is refused.
 * - No source file is over 500 lines, except a catalogue (query keys, schemas) whose first line says
 *   why: `// Catalogue …`.
 * Run: `node scripts/check-web-boundaries.ts [srcDir]`; exits 1 and lists each violation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Violation = { file: string; line: number; message: string };

const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const keyPattern = /(?:\bqueryKey\s*:\s*|\b(?:set|get)QueryData\s*(?:<[^>]*>)?\(\s*)([^,}\n]*)/g;
const catalogueKey = /^(?:queryKeys\.|\w+QueryOptions\([^)]*\)\.queryKey\b)/;
const isTestFile = (relative: string) =>
  /\.test\.tsx?$/.test(relative) || relative.split(/[\\/]/).includes('testing');

const lineOf = (source: string, index: number): number => source.slice(0, index).split('\n').length;

/** `features/<f>`, `components`, `lib`, `config`, `app` or `root` for a path relative to src. */
export const layerOf = (relative: string): string => {
  const [top, second] = relative.split(/[\\/]/);
  if (top === 'features' && second) {
    return `features/${second}`;
  }
  return ['components', 'lib', 'config', 'testing', 'app'].includes(top ?? '') ? (top as string) : 'root';
};

/** Why `fromLayer` may not import `toLayer`, or null when it may. */
const refusal = (fromLayer: string, toLayer: string): string | null => {
  if (fromLayer === 'app' || fromLayer === 'root' || fromLayer === toLayer) {
    return null;
  }
  if (toLayer === 'app' || toLayer === 'root') {
    return `${fromLayer} may not import the app layer (${toLayer})`;
  }
  if (toLayer.startsWith('features/')) {
    return fromLayer.startsWith('features/')
      ? `${fromLayer} may not import another feature (${toLayer}): move the shared part to components/ or lib/, or compose them in app/`
      : `${fromLayer} may not import a feature (${toLayer})`;
  }
  return null;
};

export const MAX_LINES = 500;

/** Checks one file's source; `relative` is its path inside src. */
export const checkSource = (relative: string, source: string): Violation[] => {
  const violations: Violation[] = [];
  const lines = source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES && !source.startsWith('// Catalogue')) {
    violations.push({
      file: relative,
      line: 1,
      message: `${lines} lines (over ${MAX_LINES}): split it by what it does, or justify a catalogue in a first-line "// Catalogue" comment`,
    });
  }
  const fromLayer = layerOf(relative);
  for (const match of source.matchAll(importPattern)) {
    const specifier = match[1] as string;
    let target: string | null = null;
    if (specifier.startsWith('@/')) {
      target = specifier.slice(2);
    } else if (specifier.startsWith('.')) {
      target = path.posix.join(path.posix.dirname(relative.split(path.sep).join('/')), specifier);
    }
    if (target === null) {
      continue;
    }
    const toLayer = target.startsWith('..') ? 'outside src' : layerOf(target);
    const reason =
      toLayer === 'testing' && !isTestFile(relative)
        ? 'production code may not import the test harness (testing/)'
        : refusal(fromLayer, toLayer);
    if (reason) {
      violations.push({
        file: relative,
        line: lineOf(source, match.index),
        message: `'${specifier}': ${reason}`,
      });
    }
  }
  if (fromLayer.startsWith('features/')) {
    for (const match of source.matchAll(keyPattern)) {
      const key = (match[1] ?? '').trim();
      if (key === '' || catalogueKey.test(key)) {
        continue;
      }
      violations.push({
        file: relative,
        line: lineOf(source, match.index),
        message: key.startsWith('[')
          ? 'a literal query key: build it with queryKeys from @/lib/query-keys'
          : `a query key kept elsewhere (${key}): build it with queryKeys from @/lib/query-keys where it is used`,
      });
    }
  }
  return violations;
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(full);
    }
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });

export const checkTree = (srcDir: string): Violation[] =>
  sourceFiles(srcDir).flatMap((file) => checkSource(path.relative(srcDir, file), readFileSync(file, 'utf8')));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = path.resolve(process.argv[2] ?? 'apps/web/src');
  const violations = checkTree(srcDir);
  for (const v of violations) {
    console.error(`${path.join(srcDir, v.file)}:${v.line}: ${v.message}`);
  }
  if (violations.length > 0) {
    console.error(`\n${violations.length} web boundary violation(s); see scripts/check-web-boundaries.ts.`);
    process.exit(1);
  }
}
