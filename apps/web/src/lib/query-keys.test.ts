import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys';

/** TanStack Query invalidates every query whose key starts with the given one. */
const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) =>
  prefix.every((part, index) => Object.is(key[index], part));

describe('query keys', () => {
  it('each invalidation root covers the queries it is meant to refresh', () => {
    const pairs: [readonly unknown[], readonly unknown[][]][] = [
      [queryKeys.users.all, [[...queryKeys.users.list({ page: 1 })]]],
      [queryKeys.checks.runs, [[...queryKeys.checks.runList({ page: 1 })], [...queryKeys.checks.run('r')]]],
      [
        queryKeys.notifications.all,
        [[...queryKeys.notifications.rules], [...queryKeys.notifications.deliveryList({})]],
      ],
      [queryKeys.notifications.deliveries, [[...queryKeys.notifications.deliveryList({ page: 2 })]]],
      [queryKeys.events.all, [[...queryKeys.events.list({ page: 1 })]]],
      [
        queryKeys.pledges.all,
        [
          [...queryKeys.pledges.event('e')],
          [...queryKeys.pledges.events({})],
          [...queryKeys.pledges.packages({})],
        ],
      ],
      [queryKeys.news.all, [[...queryKeys.news.list({ page: 1 })], [...queryKeys.news.unreadCount]]],
      [queryKeys.news.lists, [[...queryKeys.news.list({ page: 1 })]]],
      [queryKeys.uploads.all, [[...queryKeys.uploads.list({})], [...queryKeys.uploads.detail('u')]]],
      [queryKeys.uploads.lists, [[...queryKeys.uploads.list({ page: 1 })]]],
      [
        queryKeys.monitoringItems.all,
        [
          [...queryKeys.monitoringItems.list({})],
          [...queryKeys.monitoringItems.detail('i')],
          [...queryKeys.monitoringItems.findings('i')],
          [...queryKeys.monitoringItems.events('i')],
        ],
      ],
      [queryKeys.oneTimeChecks.lists, [[...queryKeys.oneTimeChecks.list({ page: 1 })]]],
      [queryKeys.verifyEmail.all, [[...queryKeys.verifyEmail.token('t')]]],
    ];
    for (const [root, keys] of pairs) {
      for (const key of keys) {
        expect(startsWith(key, root), `${JSON.stringify(root)} → ${JSON.stringify(key)}`).toBe(true);
      }
    }
  });

  it('a narrower root does not reach its siblings', () => {
    expect(startsWith(queryKeys.news.unreadCount, queryKeys.news.lists)).toBe(false);
    expect(startsWith(queryKeys.uploads.detail('u'), queryKeys.uploads.lists)).toBe(false);
    expect(startsWith(queryKeys.oneTimeChecks.one('c'), queryKeys.oneTimeChecks.lists)).toBe(false);
    expect(startsWith(queryKeys.notifications.rules, queryKeys.notifications.deliveries)).toBe(false);
  });

  it('no two families share a first part, so one root never refreshes another family', () => {
    const firsts = Object.values(queryKeys).map((family) => {
      const sample = Object.values(family)[0] as readonly unknown[] | ((arg: string) => readonly unknown[]);
      return (typeof sample === 'function' ? sample('x') : sample)[0];
    });
    expect(new Set(firsts).size).toBe(firsts.length);
  });
});
