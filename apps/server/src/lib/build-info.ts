import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The build identifier the web app polls: written by the web build into dist/build.json
 * (commit + build time). Without a built web app (development) it is fixed per process start.
 */
export function readBuildId(webDist: string): string {
  try {
    const parsed = JSON.parse(readFileSync(path.join(webDist, 'build.json'), 'utf8')) as { build?: unknown };
    if (typeof parsed.build === 'string' && parsed.build.length > 0) {
      return parsed.build;
    }
  } catch {
    // No build file: fall through to a per-process identifier.
  }
  return `dev-${new Date().toISOString()}`;
}

/**
 * What `GET /api/v1/build/info` answers without sign-in: a digest of the build identifier. It changes
 * with every build, so open tabs still notice a deployment, but it does not reveal the commit.
 */
export const opaqueBuildId = (build: string): string =>
  createHash('sha256').update(build).digest('hex').slice(0, 16);
