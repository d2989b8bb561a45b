import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError } from '../describe-error.js';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import type { Logger } from '../logger.js';
import type { Database } from '../store/database.js';
import { indexBacklog } from '../store/index-backlog.js';
import { claimIndexJobs } from '../store/index-jobs.js';
import type { DatabaseLifecycle, TenantDatabase } from '../tenancy/resolver.js';
import { type EmbeddedBatch, embedBatch, type IndexBatchTarget, linkBatch } from './index-batch.js';
import { Indexer } from './indexer.js';

/** What the indexers of a server share. */
export interface IndexingOptions {
  logger: Logger;
  /** The model of memories that name none (MEMORY_EMBEDDING_MODEL). */
  defaultModel: string;
  /** The server's embedding models. */
  registry: EmbeddingRegistry;
  /** The record clock (usage month, graph timestamps); tests may pin it. */
  now: () => Date;
  /** Wall-clock milliseconds for leases and backoff. */
  clock?: () => number;
  /** The claimant id written into `claimed_by`; unique per server instance by default. */
  claimant?: string;
  /**
   * Milliseconds since a request last ran in this server (0 while one runs): indexers yield to requests while it is
   * short. Unset, they yield to the writes of their own database only.
   */
  foregroundQuietMs?: () => number;
}

/** The index queues of every open database together, as last measured (`IndexingService.backlog`). */
export interface IndexingBacklog {
  /** Jobs waiting, summed over open databases (each counted up to `BACKLOG_COUNT_CAP`). */
  pending: number;
  /** Epoch milliseconds the oldest waiting job of any open database was queued; null when none waits. */
  oldestQueuedAt: number | null;
  /** Jobs processed since start (indexed, dropped, or released for a retry). */
  processed: number;
  /** Databases with an indexer: every tenant database this server has open. */
  openDatabases: number;
}

/**
 * The indexers of every open tenant database: one starts when the resolver opens a database (resuming the jobs it
 * holds) and stops before it closes. Writes wake their database's indexer; tests and the start-up sweep drain them.
 */
export class IndexingService implements DatabaseLifecycle {
  /** This server's claimant id: host, process and a random suffix (two instances in one process differ too). */
  readonly claimant: string;
  private readonly indexers = new Map<Database, Indexer<EmbeddedBatch>>();
  private paused = false;
  private closed = false;
  private sweep: { timer: ReturnType<typeof setTimeout>; run: () => Promise<void> } | null = null;
  private sweeping: Promise<void> | null = null;
  /** Jobs processed by indexers that have stopped (their databases closed), so the total never goes back. */
  private processedBefore = 0;

  constructor(private readonly options: IndexingOptions) {
    this.claimant = options.claimant ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Starts the indexer of a database that just opened; it resumes the jobs left from before at once. */
  opened(handle: TenantDatabase): void {
    if (this.closed || this.indexers.has(handle.database)) return;
    const { database } = handle;
    const clock = this.options.clock ?? Date.now;
    const target = (): IndexBatchTarget => ({
      tenant: handle,
      claimant: this.claimant,
      registry: this.options.registry,
      defaultModel: this.options.defaultModel,
      logger: this.options.logger,
      now: this.options.now(),
      nowMs: clock(),
    });
    const indexer = new Indexer<EmbeddedBatch>(
      {
        claim: (options) => claimIndexJobs(database, this.claimant, options),
        measure: () => indexBacklog(database),
        embed: (jobs) => embedBatch(target(), jobs),
        link: (embedded) => linkBatch(target(), embedded),
        ...(this.options.foregroundQuietMs === undefined ? {} : { foregroundQuietMs: this.options.foregroundQuietMs }),
        paused: () => this.paused,
        logger: this.options.logger,
        clock,
      },
      handle.key,
    );
    this.indexers.set(database, indexer);
    indexer.start();
  }

  /** Stops a database's indexer before the database closes (its batch in progress is stored first). */
  async closing(handle: TenantDatabase): Promise<void> {
    const indexer = this.indexers.get(handle.database);
    this.indexers.delete(handle.database);
    if (indexer === undefined) return;
    const counted = indexer.processed;
    this.processedBefore += counted;
    await indexer.stop();
    this.processedBefore += indexer.processed - counted;
  }

  /** Tells a database's indexer that jobs were just written. */
  jobsQueued(handle: TenantDatabase): void {
    this.indexers.get(handle.database)?.wake();
  }

  /**
   * The queues of the open databases as their indexers last measured them (after each batch and each pass, with one
   * bounded statement): reading it touches no database, so a metrics scrape costs nothing however large the queues.
   */
  backlog(): IndexingBacklog {
    let pending = 0;
    let oldestQueuedAt: number | null = null;
    let processed = this.processedBefore;
    for (const indexer of this.indexers.values()) {
      pending += indexer.backlog.pending;
      processed += indexer.processed;
      const oldest = indexer.backlog.oldestQueuedAt;
      if (oldest !== null && (oldestQueuedAt === null || oldest < oldestQueuedAt)) oldestQueuedAt = oldest;
    }
    return { pending, oldestQueuedAt, processed, openDatabases: this.indexers.size };
  }

  /** Stops background indexing everywhere (writes still queue jobs; `drain` still indexes). */
  pause(): void {
    this.paused = true;
  }

  /** Restarts background indexing everywhere. */
  resume(): void {
    this.paused = false;
    for (const indexer of this.indexers.values()) indexer.start();
  }

  /**
   * Schedules the start-up sweep (reopening known databases so their jobs resume) after a delay, so it never
   * competes with start-up itself; `drain` runs it at once.
   */
  scheduleSweep(run: () => Promise<void>, delayMs: number): void {
    const timer = setTimeout(() => this.startSweep(), delayMs);
    timer.unref();
    this.sweep = { timer, run };
  }

  /** Whether the server is shutting down (the sweep stops opening databases). */
  get shuttingDown(): boolean {
    return this.closed;
  }

  /** Waits until a database's indexer has no pass in progress (it is not made to run while paused). */
  async settled(database: Database): Promise<void> {
    await this.indexers.get(database)?.settled();
  }

  /**
   * Indexes every open database until no job is due, after the start-up sweep (run now if still scheduled). Jobs
   * waiting for a retry backoff, or held under another process's lease, stay queued.
   */
  async drain(): Promise<void> {
    this.startSweep();
    await this.sweeping;
    await Promise.all([...this.indexers.values()].map((indexer) => indexer.drain()));
  }

  /** Stops every indexer and the sweep; queued jobs stay in their databases for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweep !== null) clearTimeout(this.sweep.timer);
    this.sweep = null;
    const indexers = [...this.indexers.values()];
    this.indexers.clear();
    await Promise.all(indexers.map((indexer) => indexer.stop()));
    await this.sweeping;
  }

  private startSweep(): void {
    if (this.sweep === null || this.closed) return;
    clearTimeout(this.sweep.timer);
    const { run } = this.sweep;
    this.sweep = null;
    this.sweeping = run().catch((error: unknown) => {
      this.options.logger.warn('index sweep failed', { error: describeError(error) });
    });
  }
}
