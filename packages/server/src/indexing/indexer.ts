import { describeError } from '../describe-error.js';
import type { Logger } from '../logger.js';
import { inBackground } from '../request-scope.js';
import type { IndexBacklog } from '../store/index-backlog.js';
import type { IndexJob } from '../store/index-jobs.js';

/** Jobs one claim takes while the server is quiet: one embedding call and one graph transaction serve them all. */
const BATCH_SIZE = 64;
/**
 * Jobs one claim takes while requests run: a vector index insert costs milliseconds per memory and holds the
 * database's single writer, and the embedding call shares the model with queries, so a small batch keeps the wait of
 * a request queued behind either short.
 */
const BUSY_BATCH_SIZE = 8;
/** The server counts as busy this long after a request ran (or wrote to this database). */
const BUSY_WINDOW_MS = 1_000;
/**
 * While busy, the indexer rests as long as its last batch took (times this), if a request is running when the batch
 * ends: it leaves requests at least half the time, and keeps pace with a steady trickle of writes.
 */
const BUSY_REST_FACTOR = 1;
/**
 * How long a claim holds: long enough for a batch with a slow remote embedding provider, short enough that the jobs
 * of a killed process are taken over within a couple of minutes.
 */
export const LEASE_MS = 120_000;
/** An idle indexer looks for due jobs (retries, expired leases, other processes' writes) this often, then backs off. */
const MIN_POLL_MS = 500;
const MAX_POLL_MS = 15_000;

/**
 * What an indexer runs on: claiming, the two steps of indexing a claimed batch (`embed` stores its vectors, `link` its
 * graph edges and finishes its jobs), and whether indexing is paused.
 */
export interface IndexerDriver<Embedded = unknown> {
  claim(options: { nowMs: number; leaseMs: number; limit: number }): Promise<IndexJob[]>;
  embed(jobs: IndexJob[]): Promise<Embedded>;
  link(embedded: Embedded): Promise<void>;
  /** Measures the database's queue (bounded: `store/index-backlog.ts`), for metrics. */
  measure?(): Promise<IndexBacklog>;
  /** Milliseconds since a request last ran in this process (0 while one runs); unknown when absent. */
  foregroundQuietMs?(): number;
  paused(): boolean;
  logger: Logger;
  clock: () => number;
}

/**
 * The background indexer of one open database: claims due jobs in batches, oldest first, until none is due; then
 * sleeps until woken (a write) or its poll timer fires. While the server is quiet, a batch's graph step (neighbour
 * searches on a reading connection) overlaps the next batch's embedding and vector inserts (the writer), so both
 * cores work. While requests run it yields to them: small batches, one step at a time, and a rest after a batch
 * that ended beside a request, so requests keep their latency and indexing catches up when they slow down. Never
 * throws: a failed batch is logged and its jobs come back when their lease expires.
 */
export class Indexer<Embedded = unknown> {
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
    private readonly driver: IndexerDriver<Embedded>,
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
    this.running = inBackground(() => this.run()).finally(() => {
      this.running = null;
      if (this.again) this.start();
      else this.schedule();
    });
  }

  private active(): boolean {
    return !this.stopped && (this.forced > 0 || !this.driver.paused());
  }

  /** Milliseconds since a request last ran (or wrote to this database); 0 while one runs. */
  private quietMs(): number {
    const sinceWrite = this.driver.clock() - this.lastWriteAt;
    return Math.min(sinceWrite, this.driver.foregroundQuietMs?.() ?? Number.POSITIVE_INFINITY);
  }

  private busy(): boolean {
    return this.forced === 0 && this.quietMs() < BUSY_WINDOW_MS;
  }

  private async run(): Promise<void> {
    let worked = false;
    do {
      this.again = false;
      // The previous batch's graph step, still running beside this batch's embedding (quiet server only).
      let linking: Promise<void> | null = null;
      try {
        while (this.active()) {
          const busy = this.busy();
          const started = this.driver.clock();
          const jobs = await this.driver.claim({
            nowMs: started,
            leaseMs: LEASE_MS,
            limit: busy ? BUSY_BATCH_SIZE : BATCH_SIZE,
          });
          if (jobs.length === 0) break;
          const embedded = await this.driver.embed(jobs);
          await linking;
          linking = null;
          const link = this.driver.link(embedded).then(async () => {
            this.processed += jobs.length;
            await this.measure();
          });
          worked = true;
          if (!busy) {
            // Failures surface where it is awaited; until then it must not count as unhandled.
            link.catch(() => undefined);
            linking = link;
            continue;
          }
          await link;
          if (this.quietMs() === 0) await this.restFor((this.driver.clock() - started) * BUSY_REST_FACTOR);
        }
        await linking;
      } catch (error) {
        // The database may be closing or unreachable: the claimed jobs come back after their lease.
        await linking?.catch(() => undefined);
        this.driver.logger.warn('index batch failed', { database: this.name, error: describeError(error) });
        this.again = false;
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
