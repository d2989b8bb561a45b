import { MAX_ADD_BATCH, type PendingAdd, writeAdds } from '../store/add-batch.js';
import type { Database } from '../store/database.js';
import { GroupCommit } from '../store/group-commit.js';
import { MemoryStore } from '../store/memories.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { ScopeModels } from '../store/scope-models.js';
import { ScopeRankings } from '../store/scope-ranking.js';
import { SessionStore } from '../store/sessions.js';
import { SkillStore } from '../store/skills.js';
import { TermCounts } from '../store/term-counts.js';
import { VectorTables } from '../store/vector-tables.js';
import { ReadinessSchedule } from './readiness-schedule.js';

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
 * its stores (the one door to its tables: nothing else constructs one), its caches (vector tables, term counts, the
 * models projects were embedded with) and the group commit its `memories/add` calls share. The tenant resolver hands
 * these out; nothing else keeps state per database.
 */
export class TenantDatabase {
  /** The vector tables of each embedding model, with their rows. */
  readonly vectorTables: VectorTables;
  /** Full-text document counts, cached a minute, for lexical search statistics. */
  readonly termCounts: TermCounts;
  /** The embedding model each project's memories were last embedded with. */
  readonly scopeModels: ScopeModels;
  /** How each scope's searches rank it (a narrow one by its own memories), its large scopes cached a minute. */
  readonly scopeRankings: ScopeRankings;
  /** Memories and their full-text index. */
  readonly memories: MemoryStore;
  /** Sessions, their events and snapshots. */
  readonly sessions: SessionStore;
  /** Skill files. */
  readonly skills: SkillStore;
  /** When the retrieval policy's readiness gate may run again (see `rollout/policy-autopilot.ts`). */
  readonly policyReadiness = new ReadinessSchedule();
  /**
   * Concurrent `memories/add` calls, written in group commits: adds that arrive while a batch is being written go
   * together in the next one (see `store/add-batch.ts`); null for an add whose duplicate is stored.
   */
  readonly adds: GroupCommit<PendingAdd, MemoryRow | null>;
  private expirySweptAt = Number.NEGATIVE_INFINITY;
  /** Requests using this handle right now (see `tryAcquire`). */
  private leases = 0;
  /** Set once the handle is being closed: no request may take it any more. */
  private closing = false;
  /** Told when the last lease is released (retirements wait for it). */
  private readonly idleWaiters = new Set<() => void>();

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
    this.scopeRankings = new ScopeRankings(database);
    this.memories = new MemoryStore(database);
    this.sessions = new SessionStore(database);
    this.skills = new SkillStore(database);
    this.adds = new GroupCommit(async (adds) => {
      const rows = await writeAdds(this.memories, adds);
      // A batch of duplicates queued no job.
      if (rows.some((row) => row !== null)) this.jobsQueued();
      return rows;
    }, MAX_ADD_BATCH);
  }

  /**
   * Takes the handle for one request: until the returned release is called, a retirement (eviction from the open
   * cache, a mapping change) waits before it closes the database. Null once the handle is closing: the caller asks
   * the resolver again and gets an open one.
   */
  tryAcquire(): (() => void) | null {
    if (this.closing) return null;
    this.leases++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.leases--;
      if (this.leases > 0) return;
      for (const waiter of [...this.idleWaiters]) waiter();
    };
  }

  /**
   * Waits until no request holds the handle, or `maxWaitMs` at most (a request that overstays it meets a closed
   * database and answers a retryable SERVER_BUSY), then marks the handle closing so no request takes it again. The
   * caller closes the database next. An evicted handle so closes as soon as the requests using it end: the open
   * handles stay bounded by the cache size plus the requests in flight, whatever the churn. The count is checked
   * again in the turn that marks the handle closing: a request may take it between the last release and that turn
   * (its lease was waiting in the same queue of promise reactions), and is then waited for too.
   */
  async retire(maxWaitMs: number): Promise<void> {
    const deadline = performance.now() + maxWaitMs;
    while (this.leases > 0 && !this.closing) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      await this.idle(left);
    }
    this.closing = true;
  }

  /** Resolves when the last lease is released, or after `ms`. */
  private idle(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.idleWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.idleWaiters.add(done);
    });
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
