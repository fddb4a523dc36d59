import { execSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const srcDir = fileURLToPath(new URL('./src', import.meta.url));
const entryModule = path.join(srcDir, 'main.tsx');
/** The screens shown before sign-in; see `chunkGroups`. */
const signedOutRoutesDir = path.join(srcDir, 'app', 'routes', 'auth') + path.sep;

function gitShortCommit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'nogit';
  }
}

/**
 * Writes `dist/build.json`; the server answers `GET /api/v1/build/info` with its `build` value and
 * open tabs reload when it changes (see src/lib/build-check.ts).
 */
function buildInfoPlugin(): Plugin {
  return {
    name: 'pledgewatch-build-info',
    apply: 'build',
    generateBundle() {
      const build = `${gitShortCommit()}-${new Date().toISOString()}`;
      this.emitFile({ type: 'asset', fileName: 'build.json', source: `${JSON.stringify({ build })}\n` });
    },
  };
}

/**
 * Writes `.br` and `.gz` next to every script, style and text file of the build (the hashed assets and
 * the copied public files alike); the server sends them as they are (@fastify/static `preCompressed`),
 * so nothing is compressed per request.
 */
function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'pledgewatch-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory()
            ? entry.name.startsWith('.')
              ? []
              : walk(path.join(dir, entry.name))
            : [path.join(dir, entry.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|json|txt)$/.test(file)) {
          continue;
        }
        const source = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

type ModuleGraph = {
  getModuleInfo(
    id: string,
  ): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
};

/** The whole UI dictionary; the signed-out screens use texts-signed-out.ts instead. */
const fullTexts = path.join(srcDir, 'config', 'texts.ts');

const contractIndex = fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url));
/**
 * What the signed-out code takes from the contract's index (`ROUTES`): the index re-exports
 * every zod schema, and following all of it would keep the whole contract out of `app-shared`.
 * Anything else must be imported by its own path (e.g. `@pledgewatch/contract/auth`,
 * `@pledgewatch/contract/endpoints/auth`); the check in
 * `generateBundle` fails the build when the signed-out chunks reach `app-shared` anyway.
 */
const contractIndexLight = ['routes.ts'].map((file) =>
  fileURLToPath(new URL(`../../packages/contract/src/${file}`, import.meta.url)),
);

/**
 * Chunking for a light sign-in page and cheap preloads after it. Code used by two or more
 * signed-in screens (MUI parts, tables, shared components, contract schemas) is one chunk,
 * `app-shared`, fetched with the signed-in layout; each section then is a single route chunk (plus
 * what only it uses, e.g. recharts or markdown), so four routes preloading at once means at most
 * four files in flight. Nothing the signed-out screens need goes into `app-shared`: that is what the
 * entry imports statically plus everything the sign-in routes import, even lazily (their zod).
 */
function appChunks() {
  type Sets = { initial: Set<string>; signInRoutes: Set<string>; signedOut: Set<string> };
  let sets: Sets | null = null;
  /** One importer per module, to name the import chain in build errors. */
  const importers = new Map<string, string>();
  const signedOutSets = (graph: ModuleGraph): Sets => {
    if (sets) {
      return sets;
    }
    const walk = (starts: string[], followDynamic: (id: string) => boolean) => {
      const seen = new Set<string>();
      const visit = (id: string, from?: string) => {
        if (seen.has(id)) {
          return;
        }
        seen.add(id);
        if (from && !importers.has(id)) {
          importers.set(id, from);
        }
        const info = graph.getModuleInfo(id);
        const next = id === contractIndex ? contractIndexLight : (info?.importedIds ?? []);
        for (const nextId of next) {
          visit(nextId, id);
        }
        for (const nextId of id === contractIndex ? [] : (info?.dynamicallyImportedIds ?? [])) {
          if (followDynamic(nextId)) {
            visit(nextId, id);
          }
        }
      };
      for (const start of starts) {
        visit(start);
      }
      return seen;
    };
    const initial = walk([entryModule], () => false);
    const routes = [...initial].flatMap(
      (id) =>
        graph
          .getModuleInfo(id)
          ?.dynamicallyImportedIds.filter((next) => next.startsWith(signedOutRoutesDir)) ?? [],
    );
    sets = {
      initial,
      signInRoutes: walk(routes, () => false),
      signedOut: new Set([...initial, ...walk(routes, () => true)]),
    };
    return sets;
  };

  const groups = [
    // Everything the entry needs, in one file (fewer, larger files compress better).
    { name: 'boot', tags: ['$initial' as const], priority: 3 },
    // The sign-in and password-reset screens: one file.
    {
      name: (id: string, graph: ModuleGraph) => {
        const { initial, signInRoutes } = signedOutSets(graph);
        return signInRoutes.has(id) && !initial.has(id) ? 'sign-in' : null;
      },
      priority: 2,
      includeDependenciesRecursively: false,
    },
    {
      name: (id: string, graph: ModuleGraph) =>
        signedOutSets(graph).signedOut.has(id) ? null : 'app-shared',
      minShareCount: 2,
      priority: 1,
      // Its dependencies stay where they are (the entry, the sign-in chunks) and are imported from there.
      includeDependenciesRecursively: false,
    },
  ];

  const plugin: Plugin = {
    name: 'pledgewatch-app-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((item) =>
          item.type === 'chunk' ? [[item.fileName, item] as const] : [],
        ),
      );
      const reached = new Set<string>();
      const visit = (fileName: string, followDynamic: boolean) => {
        const chunk = chunks.get(fileName);
        if (!chunk || reached.has(fileName)) {
          return;
        }
        reached.add(fileName);
        for (const next of chunk.imports) {
          visit(next, followDynamic);
        }
        for (const next of chunk.dynamicImports) {
          const isSignedOutRoute = chunks.get(next)?.facadeModuleId?.startsWith(signedOutRoutesDir) ?? false;
          if (followDynamic || isSignedOutRoute) {
            visit(next, true);
          }
        }
      };
      for (const chunk of chunks.values()) {
        if (chunk.isEntry) {
          visit(chunk.fileName, false);
        }
      }
      if (sets?.signedOut.has(fullTexts)) {
        const chain: string[] = [];
        for (let id: string | undefined = fullTexts; id; id = importers.get(id)) {
          chain.unshift(path.relative(srcDir, id));
        }
        this.error(
          `The sign-in screens would load the whole dictionary (config/texts.ts): ${chain.join(' → ')}. ` +
            'Code that runs before sign-in imports @/config/texts-signed-out.',
        );
      }
      const leaked = [...reached].filter((fileName) => chunks.get(fileName)?.name === 'app-shared');
      if (leaked.length > 0) {
        this.error(
          `The sign-in screens would load ${leaked.join(', ')} (signed-in code). Import from the contract by path ` +
            `(e.g. @pledgewatch/contract/auth) or see appChunks() in vite.config.ts.`,
        );
      }
    },
  };
  return { groups, plugin };
}

const chunks = appChunks();

export default defineConfig({
  plugins: [react(), buildInfoPlugin(), precompressPlugin(), chunks.plugin],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // dist/.vite/manifest.json: which files each route needs (e2e/tests/web-weight.spec.ts reads it).
    manifest: true,
    // Styles come from emotion at runtime; keeping CSS unminified leaves index.html's first-paint rules as written.
    cssMinify: false,
    rolldownOptions: {
      output: { codeSplitting: { groups: chunks.groups } },
    },
  },
});
