import { ApiError } from '../api-error.js';
import { currentObservation } from '../observability/request-observation.js';

interface Waiter {
  /** Hands the waiter the slot of a request that just finished. */
  admit: () => void;
}

interface Lane {
  running: number;
  waiting: Waiter[];
  /** Recent request duration (exponentially weighted), for an honest Retry-After. */
  averageMs: number;
}

/** The key of a tenant's lane of one kind. */
const laneKey = (tenant: string, kind: LaneKind) => `${kind}\u0000${tenant}`;

/** Weight of the newest duration in a lane's average. */
const AVERAGE_WEIGHT = 0.2;

/**
 * Which lane of its tenant a request runs in: writes (adds, edits, forgets) are short and the caller waits on their
 * acknowledgement, reads (a hybrid `context/get`) may hold a slot for hundreds of milliseconds; in one lane, a burst
 * of reads would queue every write behind it.
 */
export type LaneKind = 'read' | 'write';

/** Every lane together, for metrics: never per tenant (a tenant id is not a metric label). */
export interface TenantGateStats {
  /** Requests running in some lane now. */
  running: number;
  /** Requests waiting in some lane's queue now. */
  waiting: number;
  /** Lanes (a tenant's reads, a tenant's writes) with a request running or waiting. */
  lanes: number;
  /** Requests admitted since start, and the seconds they waited for their slot in total. */
  admitted: number;
  waitSeconds: number;
  /** Requests refused SERVER_BUSY because their tenant's queue was full. */
  rejected: number;
}

/**
 * Per-tenant admission: each tenant database (owner and tenantId) has a lane for reads and one for writes, each
 * running at most `concurrency` requests at once; more wait in that lane's own FIFO queue, and past `queueLimit`
 * waiting ones a request is refused with SERVER_BUSY and a Retry-After from the lane's recent request times. One
 * tenant's burst fills its own lanes, never another's: the workers behind it see at most `2 * concurrency` of its
 * requests at a time; and its writes never wait behind its reads (nor reads behind writes).
 */
export class TenantGate {
  private readonly lanes = new Map<string, Lane>();
  // Kept as requests come and go, so a metrics scrape reads them without walking the lanes.
  private readonly totals = { running: 0, waiting: 0, admitted: 0, waitSeconds: 0, rejected: 0 };
  /** When the last request finished (`performance.now()`). */
  private lastFinishedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly concurrency: number,
    private readonly queueLimit: number,
  ) {}

  /**
   * Runs work in a tenant's lane of its kind; a waiting request leaves the queue when `signal` aborts (its deadline).
   */
  async run<T>(tenant: string, signal: AbortSignal, work: () => Promise<T>, kind: LaneKind = 'read'): Promise<T> {
    const key = laneKey(tenant, kind);
    const lane = this.lanes.get(key) ?? { running: 0, waiting: [], averageMs: 50 };
    this.lanes.set(key, lane);
    // A free slot is taken now; otherwise a finishing request hands its slot over (the count never overshoots).
    const arrived = performance.now();
    if (lane.running < this.concurrency) {
      lane.running++;
      this.totals.running++;
    } else await this.wait(lane, signal);
    const started = performance.now();
    this.admitted(started - arrived);
    try {
      return await work();
    } finally {
      lane.averageMs += AVERAGE_WEIGHT * (performance.now() - started - lane.averageMs);
      const next = lane.waiting.shift();
      if (next !== undefined) {
        this.totals.waiting--;
        next.admit();
      } else {
        this.totals.running--;
        if (--lane.running === 0) this.lanes.delete(key);
      }
      this.lastFinishedAt = performance.now();
    }
  }

  /** Milliseconds since a request last finished; 0 while one runs or waits (background work yields meanwhile). */
  quietMs(): number {
    if (this.totals.running > 0 || this.totals.waiting > 0) return 0;
    return performance.now() - this.lastFinishedAt;
  }

  /** Every lane together (for metrics): counts only, no tenant. */
  stats(): TenantGateStats {
    return { ...this.totals, lanes: this.lanes.size };
  }

  /** Counts an admitted request and tells its request (its trace span) how long it waited. */
  private admitted(waitedMs: number): void {
    this.totals.admitted++;
    this.totals.waitSeconds += waitedMs / 1000;
    const observation = currentObservation();
    if (observation !== undefined) observation.tenantGateWaitMs += waitedMs;
  }

  /** Requests running and waiting for a tenant, in its lanes of `kinds` (both by default; for tests and observability). */
  load(tenant: string, kinds: readonly LaneKind[] = ['read', 'write']): { running: number; waiting: number } {
    const lanes = kinds.map((kind) => this.lanes.get(laneKey(tenant, kind)));
    return {
      running: lanes.reduce((total, lane) => total + (lane?.running ?? 0), 0),
      waiting: lanes.reduce((total, lane) => total + (lane?.waiting.length ?? 0), 0),
    };
  }

  private wait(lane: Lane, signal: AbortSignal): Promise<void> {
    if (lane.waiting.length >= this.queueLimit) {
      const drainSeconds = ((lane.waiting.length + lane.running) * lane.averageMs) / this.concurrency / 1000;
      const retryAfterSeconds = Math.max(1, Math.ceil(drainSeconds));
      this.totals.rejected++;
      throw new ApiError(
        'SERVER_BUSY',
        `This tenant already has ${lane.running} requests running and ${lane.waiting.length} waiting; retry after ${retryAfterSeconds} s`,
        { retryAfterSeconds },
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          signal.removeEventListener('abort', leave);
          resolve();
        },
      };
      const leave = () => {
        const index = lane.waiting.indexOf(waiter);
        if (index >= 0) {
          lane.waiting.splice(index, 1);
          this.totals.waiting--;
        }
        reject(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      lane.waiting.push(waiter);
      this.totals.waiting++;
    });
  }
}
