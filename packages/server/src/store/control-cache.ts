import { LRUCache } from 'lru-cache';

/** How long control-plane rows are cached: bounds how stale another replica's view of a revocation can be. */
export const CONTROL_CACHE_TTL_MS = 5_000;

/** Entries a control-plane cache holds at most (the least recently used go first). */
const CONTROL_CACHE_ENTRIES = 10_000;

/**
 * A time-bounded LRU for control-plane reads made on every request (keys, owners, tenant mappings, embedding
 * configuration). Writes in this process delete their entries at once; other replicas see a change within the TTL.
 * Values are boxed so that `undefined` ("no such row") is cached too: an unknown key costs one read per TTL.
 */
export type ControlCache<Value> = LRUCache<string, { value: Value }>;

/** A new control-plane cache (see `ControlCache`). */
export function controlCache<Value>(): ControlCache<Value> {
  return new LRUCache<string, { value: Value }>({ max: CONTROL_CACHE_ENTRIES, ttl: CONTROL_CACHE_TTL_MS });
}

/** The cached value of `key`, or what `load` returns (then cached). */
export async function readThrough<Value>(
  cache: ControlCache<Value>,
  key: string,
  load: () => Promise<Value>,
): Promise<Value> {
  const cached = cache.get(key);
  if (cached !== undefined) return cached.value;
  const value = await load();
  cache.set(key, { value });
  return value;
}
