import { LRUCache } from 'lru-cache';

/** How long control-plane rows are cached: bounds how stale another replica's view of a revocation can be. */
export const CONTROL_CACHE_TTL_MS = 5_000;

/** Entries a control-plane cache holds at most (the least recently used go first). */
const CONTROL_CACHE_ENTRIES = 10_000;

/**
 * A time-bounded LRU for control-plane reads made on every request (keys, owners, tenant mappings, embedding
 * configuration). Writes in this process go through `writing`, so this process sees them at once; other replicas
 * see a change within the TTL. Values are boxed so that `undefined` ("no such row") is cached too: an unknown key
 * costs one read per TTL.
 *
 * A read that was in flight while a write ran is returned but never cached: it may have read the row before the
 * write committed, and caching it would serve the old row (a revoked key, a missing tenant mapping) for a whole TTL
 * after the write answered.
 */
export class ControlCache<Value> {
  private readonly entries = new LRUCache<string, { value: Value }>({
    max: CONTROL_CACHE_ENTRIES,
    ttl: CONTROL_CACHE_TTL_MS,
  });
  /** Bumped by every write and drop: a read caches its result only if no write started or ended meanwhile. */
  private generation = 0;

  /** The cached value of `key`, or what `load` returns (cached unless a write overlapped the load). */
  async read(key: string, load: () => Promise<Value>): Promise<Value> {
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.entries.set(key, { value });
    return value;
  }

  /** Runs a write of `key`'s row (of every row with `undefined`), dropping the cached entries before and after it. */
  async writing<Result>(key: string | undefined, write: () => Promise<Result>): Promise<Result> {
    this.drop(key);
    try {
      return await write();
    } finally {
      this.drop(key);
    }
  }

  /** Drops `key` (every entry with `undefined`), after a write behind this cache's back. */
  drop(key?: string): void {
    this.generation += 1;
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}

/** A new control-plane cache (see `ControlCache`). */
export function controlCache<Value>(): ControlCache<Value> {
  return new ControlCache<Value>();
}
