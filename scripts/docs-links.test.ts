import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs are a manual of this repository: every relative link in README.md and docs/ opens a file
 * of it, and no text points at a file outside it (a reader of a clone has nothing else).
 */
const root = path.resolve(import.meta.dirname, '..');
const manuals = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Relative targets of markdown links and images, without their #anchor. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('the docs', () => {
  it.each(manuals)('%s: every relative link opens a file of the repository', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const broken = relativeLinks(text).filter((target) => {
      const resolved = path.resolve(path.dirname(path.join(root, file)), decodeURI(target));
      return !resolved.startsWith(`${root}${path.sep}`) || !existsSync(resolved);
    });
    expect(broken).toEqual([]);
  });

  it.each(manuals)('%s: names no path outside the repository', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    expect(text.match(/(?:^|[\s`(])\.\.\/(?:shared|\.\.)\/\S*/gm) ?? []).toEqual([]);
  });
});
