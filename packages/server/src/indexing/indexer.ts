import type { Logger } from '../logger.js';
import { outsideRequestScope } from '../pipeline/request-scope.js';
import type { IndexBacklog } from '../store/index-backlog.js';
import type { IndexJob } from '../store/index-jobs.js';
import { describeError } from '../tenancy/resolver.js';

/** Jobs one claim takes while the database is quiet: one embedding call and one graph transaction serve them all. */
const BATCH_SIZE = 64;
/**
 * Jobs one claim takes while requests are writing: a vector index insert costs milliseconds per memory and holds the
 * database's single writer, so a small batch keeps the wait of an add queued behind it short.
 */
const BUSY_BATCH_SIZE = 8;
/** The database counts as busy this long after a request wrote to it. */
const BUSY_WINDOW_MS = 1_000;
/** While busy, the indexer rests this many times as long as its last batch took: it takes at most a fifth of the time. */
const BUSY_REST_FACTOR = 4;
/**
 * How long a claim holds: long enough for a batch with a slow remote embedding provider, short enough that the jobs
 * of a killed process are taken over within a couple of minutes.
 */
export const LEASE_MS = 120_000;
/** An idle indexer looks for due jobs (retries, expired leases, other processes' writes) this often, then backs off. */
const MIN_POLL_MS = 500;
const MAX_POLL_MS = 15_000;

/** What an indexer runs on: claiming, processing one claimed batch, and whether indexing is paused. */
export interface IndexerDriver {
  claim(options: { nowMs: number; leaseMs: number; limit: number }): Promise<IndexJob[]>;
  process(jobs: IndexJob[]): Promise<void>;
  /** Measures the database's queue (bounded: `store/index-backlog.ts`), for metrics. */
  measure?(): Promise<IndexBacklog>;
  paused(): boolean;
  logger: Logger;
  clock: () => number;
}

/**
 * The background indexer of one open database: claims due jobs in batches, oldest first, and processes them one
 * batch at a time until none is due; then sleeps until woken (a write) or its poll timer fires. While requests are
 * writing to the database it yields to them: small batches, and rests between them, so acknowledged writes keep their
 * throughput and indexing catches up when they slow down. Never throws: a failed batch is logged and its jobs come
 * back when their lease expires.
 */
export class Indexer {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private forced = 0;
  private pollMs = MIN_POLL_MS;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private rest: { timer: ReturnType<typeof setTimeout>; done: () => void } | undefined;
  /** The queue as last measured (after each batch and each pass), read by metrics without touching the database. */
  backlog: IndexBacklog = { pending: 0, oldestQueuedAt: null };
  /** Jobs this indexer has processed (indexed, retried later or dropped). */
  processed = 0;

  constructor(
    private readonly driver: IndexerDriver,
    private readonly name: string,
  ) {}

  /** Says a request just queued jobs: a pass starts now (or right after the one in progress). */
  wake(): void {
    this.lastWriteAt = this.driver.clock();
    this.start();
  }

  /**
   * Indexes until no job is due, at full speed and even while paused (jobs waiting for a retry backoff or another
   * holder's lease stay).
   */
  async drain(): Promise<void> {
    this.forced += 1;
    try {
      this.again = true;
      this.endRest();
      this.start();
      while (this.running !== null) await this.running;
    } finally {
      this.forced -= 1;
    }
  }

  /** Resolves once the pass in progress (if any) has found nothing more to do; starts none. */
  async settled(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** Stops claiming; resolves once the batch in progress is stored. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.endRest();
    await this.settled();
  }

  /** Starts a pass over the due jobs now (or right after the one in progress). */
  start(): void {
    if (!this.active()) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    // A write's request wakes the indexer, but the pass outlives it: that request's deadline must not abort it.
    this.running = outsideRequestScope(() => this.run()).finally(() => {
      this.running = null;
      if (this.again) this.start();
      else this.schedule();
    });
  }

  private active(): boolean {
    return !this.stopped && (this.forced > 0 || !this.driver.paused());
  }

  private busy(): boolean {
    return this.forced === 0 && this.driver.clock() - this.lastWriteAt < BUSY_WINDOW_MS;
  }

  private async run(): Promise<void> {
    let worked = false;
    do {
      this.again = false;
      while (this.active()) {
        const busy = this.busy();
        const started = this.driver.clock();
        let jobs: IndexJob[];
        try {
          const limit = busy ? BUSY_BATCH_SIZE : BATCH_SIZE;
          jobs = await this.driver.claim({ nowMs: started, leaseMs: LEASE_MS, limit });
          if (jobs.length > 0) await this.driver.process(jobs);
          this.processed += jobs.length;
          await this.measure();
        } catch (error) {
          // The database may be closing or unreachable: the claimed jobs come back after their lease.
          this.driver.logger.warn('index batch failed', { database: this.name, error: describeError(error) });
          this.again = false;
          break;
        }
        if (jobs.length === 0) break;
        worked = true;
        if (busy) await this.restFor((this.driver.clock() - started) * BUSY_REST_FACTOR);
      }
    } while (this.again && this.active());
    this.pollMs = worked ? MIN_POLL_MS : Math.min(MAX_POLL_MS, this.pollMs * 2);
  }

  /** Measures the queue for metrics; a failure (a database closing) keeps the last figures and never fails a pass. */
  private async measure(): Promise<void> {
    if (this.driver.measure === undefined) return;
    try {
      this.backlog = await this.driver.measure();
    } catch {
      // The next batch or pass measures again.
    }
  }

  /** Rests between batches; `stop` and `drain` end a rest early (so it is ref'd: a stop never waits on it). */
  private restFor(ms: number): Promise<void> {
    if (!this.active() || this.forced > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.rest = undefined;
        resolve();
      };
      this.rest = { timer: setTimeout(done, ms), done };
    });
  }

  /** Cuts a rest short (a drain wants full speed; a stop wants the loop to end). */
  private endRest(): void {
    if (this.rest === undefined) return;
    clearTimeout(this.rest.timer);
    this.rest.done();
  }

  private schedule(): void {
    if (!this.active()) return;
    this.timer = setTimeout(() => this.start(), this.pollMs);
    this.timer.unref();
  }
}
