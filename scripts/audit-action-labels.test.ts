import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_ACTION_LABELS } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';

const SERVER = new URL('../apps/server/src/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return sources(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the action journal', () => {
  it('has a Russian label for every audit action code the server records', () => {
    // Audit codes are «domain.verb» (a package's own history uses bare verbs and is labelled elsewhere).
    const codes = new Set<string>();
    for (const file of sources(SERVER)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/action: '([a-z_]+\.[a-z_]+)'/g)) {
        codes.add(match[1]!);
      }
    }
    expect(codes.size).toBeGreaterThan(20);
    const unlabelled = [...codes].filter((code) => !AUDIT_ACTION_LABELS[code]);
    expect(unlabelled).toEqual([]);
  });

  it('has labels for the codes the server builds from a template', () => {
    for (const code of ['pledge.creation', 'pledge.change', 'pledge.exclusion']) {
      expect(AUDIT_ACTION_LABELS[code]).toBeTruthy();
    }
    for (const verb of ['approve', 'return', 'send', 'register', 'reject']) {
      expect(AUDIT_ACTION_LABELS[`pledge_package.${verb}`]).toBeTruthy();
    }
  });
});
