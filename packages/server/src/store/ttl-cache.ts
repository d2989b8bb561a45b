/**
 * A small time-bounded cache for control-plane rows read on every request (keys, owners, tenant mappings).
 * Writes in this process invalidate entries at once; other replicas see a change within the TTL.
 */
export class TtlCache<Value> {
  private readonly entries = new Map<string, { value: Value; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  /** The cached value, or what `load` returns (cached, `undefined` included). */
  async get(key: string, load: () => Promise<Value>): Promise<Value> {
    const entry = this.entries.get(key);
    const now = this.nowMs();
    if (entry !== undefined && entry.expiresAt > now) return entry.value;
    const value = await load();
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** How long control-plane rows are cached: bounds how stale another replica's view of a revocation can be. */
export const CONTROL_CACHE_TTL_MS = 5_000;
