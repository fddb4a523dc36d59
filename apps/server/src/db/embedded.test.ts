import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/test-app.ts';
import { availableMemoryBytes, embeddedSharedBuffersMb } from './embedded.ts';

const GIB = 1024 ** 3;

describe("the embedded server's shared buffers", () => {
  it('take a quarter of the memory, never below PostgreSQL’s default nor above 8 GB', () => {
    expect(embeddedSharedBuffersMb(24 * GIB)).toBe(6144);
    expect(embeddedSharedBuffersMb(2 * GIB)).toBe(512);
    expect(embeddedSharedBuffersMb(256 * 1024 ** 2)).toBe(128);
    expect(embeddedSharedBuffersMb(256 * GIB)).toBe(8192);
  });

  it("count a container's memory limit, not the machine's, where a control group sets one", () => {
    const files = (contents: Record<string, string>) => (file: string) => contents[file];
    // cgroup v2 with a limit, v2 without one, v1 with a limit, v1's "no limit" (a huge number), none.
    expect(availableMemoryBytes(files({ '/sys/fs/cgroup/memory.max': '2147483648\n' }), 24 * GIB)).toBe(
      2 * GIB,
    );
    expect(availableMemoryBytes(files({ '/sys/fs/cgroup/memory.max': 'max\n' }), 24 * GIB)).toBe(24 * GIB);
    expect(
      availableMemoryBytes(
        files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '4294967296\n' }),
        24 * GIB,
      ),
    ).toBe(4 * GIB);
    expect(
      availableMemoryBytes(
        files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712\n' }),
        24 * GIB,
      ),
    ).toBe(24 * GIB);
    expect(availableMemoryBytes(files({}), 24 * GIB)).toBe(24 * GIB);
  });

  it.runIf((process.env.TEST_DB ?? 'embedded') === 'embedded')(
    'are what the server the tests started runs with, not PostgreSQL’s 128 MB',
    async () => {
      const { app } = await buildTestApp();
      const { rows } = await app.db.query<{ mb: number }>(
        `SELECT (setting::bigint * 8 / 1024)::int AS mb FROM pg_settings WHERE name = 'shared_buffers'`,
      );
      expect(rows[0]!.mb).toBe(embeddedSharedBuffersMb());
      await app.close();
    },
  );
});
