import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache for state kept per open database (one is made each time a tenant's database opens),
 * bounded at `entries` and holding only what was put in it. `LRUCache`'s `max` allocates and fills its arrays for
 * every entry up front (1.2 ms for 10,000 entries, 0.6-1.0 ms for 5,000 with a TTL): paid at every open, three such
 * caches were ~2 ms of the event loop per request when more tenants are in use than the open-database cache holds.
 * Counting each entry as size 1 against `maxSize` bounds it the same way with storage that grows as entries arrive.
 */
export function perDatabaseCache<Key extends {}, Value extends {}>(
  entries: number,
  ttlMs?: number,
): LRUCache<Key, Value> {
  return new LRUCache<Key, Value>({
    maxSize: entries,
    sizeCalculation: () => 1,
    ...(ttlMs === undefined ? {} : { ttl: ttlMs }),
  });
}
