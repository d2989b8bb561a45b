import type { Database } from '../store/database.js';
import { MemoryStore } from '../store/memories.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { ScopeModels } from '../store/scope-models.js';
import { TermCounts } from '../store/term-counts.js';
import { VectorTables } from '../store/vector-tables.js';
import { MAX_ADD_BATCH, type PendingAdd, writeAdds } from '../writes/add-memories.js';
import { GroupCommit } from '../writes/group-commit.js';

/** How often the expiry of working memories is swept at most: the sweep sits on the context/get path. */
const EXPIRY_SWEEP_INTERVAL_MS = 30_000;

/** What a tenant database tells the server it belongs to. */
export interface TenantDatabaseHooks {
  /** Index jobs were committed (the database's indexer should wake up). */
  jobsQueued(tenant: TenantDatabase): void;
}

const NO_HOOKS: TenantDatabaseHooks = { jobsQueued: () => undefined };

/**
 * An open, migrated tenant (or workspace) database and the state kept beside it, which lives as long as it is open:
 * its caches (vector tables, term counts, the models projects were embedded with) and the group commit its
 * `memories/add` calls share. The tenant resolver hands these out; nothing else keeps state per database.
 */
export class TenantDatabase {
  /** The vector tables of each embedding model, with their rows. */
  readonly vectorTables: VectorTables;
  /** Full-text document counts, cached a minute, for lexical search statistics. */
  readonly termCounts: TermCounts;
  /** The embedding model each project's memories were last embedded with. */
  readonly scopeModels: ScopeModels;
  /** Memories and their full-text index. */
  readonly memories: MemoryStore;
  /**
   * Concurrent `memories/add` calls, written in group commits: adds that arrive while a batch is being written go
   * together in the next one (see `writes/add-memories.ts`).
   */
  readonly adds: GroupCommit<PendingAdd, MemoryRow>;
  private expirySweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    /** Which database this is (the resolver's cache key). */
    readonly key: string,
    readonly tenantId: string | null,
    readonly database: Database,
    private readonly hooks: TenantDatabaseHooks = NO_HOOKS,
  ) {
    this.vectorTables = new VectorTables(database);
    this.termCounts = new TermCounts(database);
    this.scopeModels = new ScopeModels(database);
    this.memories = new MemoryStore(database);
    this.adds = new GroupCommit(async (adds) => {
      const rows = await writeAdds(this.memories, adds);
      this.jobsQueued();
      return rows;
    }, MAX_ADD_BATCH);
  }

  /** Says that index jobs were committed, so the database's indexer wakes up. */
  jobsQueued(): void {
    this.hooks.jobsQueued(this);
  }

  /**
   * Soft-deletes working memories past their TTL, at most every 30 s (a clock moved back sweeps at once); returns
   * how many.
   */
  async expireWorkingMemories(now: Date): Promise<number> {
    const at = now.getTime();
    if (at - this.expirySweptAt < EXPIRY_SWEEP_INTERVAL_MS && at >= this.expirySweptAt) return 0;
    this.expirySweptAt = at;
    return this.memories.expireWorking(now);
  }
}
