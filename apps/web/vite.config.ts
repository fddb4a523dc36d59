import { execSync } from 'node:child_process';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), buildInfoPlugin()],
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
    // Styles come from emotion at runtime; keeping CSS unminified leaves index.html's first-paint rules as written.
    cssMinify: false,
  },
});
