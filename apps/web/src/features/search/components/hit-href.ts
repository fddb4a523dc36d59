import type { SearchGroup, SearchHit, SearchKind } from '@pledgewatch/contract';
import { paths } from '@/config/paths';

const withQuery = (href: string, query: Record<string, string>) => `${href}?${new URLSearchParams(query)}`;

/** The screen a hit opens: the item's card, its events, the notification, the package, the check. */
export function hitHref(kind: SearchKind, hit: SearchHit): string {
  switch (kind) {
    case 'items':
      return withQuery(paths.monitoringItems.getHref(), {
        entity: hit.itemKind ?? 'vin',
        status: 'all',
        item: hit.id,
      });
    case 'events':
      return withQuery(paths.monitoringEvents.getHref(), { itemId: hit.itemId ?? '' });
    case 'pledgeEvents':
      return withQuery(paths.pledgesEventsRegistryTable.getHref(), { event: hit.id });
    case 'packages':
      return withQuery(paths.pledgesEventsRegistryPackages.getHref(), { package: hit.id });
    case 'oneTimeChecks':
      return withQuery(paths.oneTimeCheckResults.getHref(), { id: hit.id });
  }
}

/** The whole list filtered by the query, for the kinds whose list searches the same text. */
export function groupHref(group: SearchGroup, query: string): string | null {
  if (group.kind === 'items') {
    return withQuery(paths.monitoringItems.getHref(), {
      entity: group.hits[0]?.itemKind ?? 'vin',
      status: 'all',
      search: query,
    });
  }
  if (group.kind === 'events') {
    return withQuery(paths.monitoringEvents.getHref(), { search: query });
  }
  return null;
}
