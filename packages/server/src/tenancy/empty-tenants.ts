import { LRUCache } from 'lru-cache';
import { Database, type DatabaseLocation } from '../store/database.js';
import { migrate } from '../store/migrate.js';
import { tenantMigrations } from '../store/migrations/tenant.js';
import { TenantDatabase } from './tenant-database.js';

/** Stand-ins kept open at once; a read of an unknown tenant costs one in-memory migration (a few ms) past this. */
const EMPTY_TENANT_CACHE_SIZE = 16;

/**
 * Empty, migrated in-memory databases that answer the reads of a tenantId a workspace does not have yet, so that
 * reads of made-up ids cannot fill the disk: the route's own code answers "as if empty", and nothing is written to
 * disk. One per (owner, tenantId), so what a read logs (retrieval metrics) is never seen by another tenant or
 * workspace; a small LRU, apart from the real tenants' so a stream of unknown ids never evicts them. Dropped when the
 * tenant is created.
 */
export class EmptyTenants {
  private readonly open = new LRUCache<string, Promise<TenantDatabase>>({
    max: EMPTY_TENANT_CACHE_SIZE,
    // A request may still hold an evicted stand-in: it is closed once the requests using it end.
    dispose: (entry, _key, reason) => {
      if (reason === 'evict') void retire(entry, this.retireWaitMs);
    },
  });

  constructor(
    private readonly connect: (location: DatabaseLocation) => Promise<Database> = (location) => Database.open(location),
    /** How long a retired stand-in waits for the requests holding it (the resolver's, for its own handles). */
    private readonly retireWaitMs = 31_000,
  ) {}

  /** The stand-in of an unknown tenant of an owner. */
  get(ownerId: string, tenantId: string): Promise<TenantDatabase> {
    const key = emptyKey(ownerId, tenantId);
    const existing = this.open.get(key);
    if (existing !== undefined) return existing;
    const opening = (async () => {
      const database = await this.connect({ url: 'file::memory:' });
      await migrate(database, tenantMigrations).catch(async (error: unknown) => {
        await database.close().catch(() => undefined);
        throw error;
      });
      return new TenantDatabase(key, tenantId, database);
    })();
    this.open.set(key, opening);
    opening.catch(() => {
      if (this.open.peek(key) === opening) this.open.delete(key);
    });
    return opening;
  }

  /** Drops the stand-in of a tenant that now exists. */
  drop(ownerId: string, tenantId: string): void {
    const key = emptyKey(ownerId, tenantId);
    const entry = this.open.peek(key);
    if (entry === undefined) return;
    this.open.delete(key);
    void retire(entry, this.retireWaitMs);
  }

  /** Closes every stand-in at once (shutdown). */
  async close(): Promise<void> {
    const entries = [...this.open.values()];
    this.open.clear();
    await Promise.all(entries.map((entry) => retire(entry, 0)));
  }
}

/** Closes a stand-in once no request holds it (TenantDatabase.retire). Never throws. */
async function retire(entry: Promise<TenantDatabase>, waitMs: number): Promise<void> {
  try {
    const handle = await entry;
    await handle.retire(waitMs);
    await handle.database.close();
  } catch {
    // It never opened, or its close failed: an in-memory database has no file to hold.
  }
}

function emptyKey(ownerId: string, tenantId: string): string {
  return `empty:${ownerId}:${tenantId}`;
}
