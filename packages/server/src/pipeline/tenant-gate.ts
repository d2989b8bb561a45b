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

/** Weight of the newest duration in a lane's average. */
const AVERAGE_WEIGHT = 0.2;

/** Every lane together, for metrics: never per tenant (a tenant id is not a metric label). */
export interface TenantGateStats {
  /** Requests running in some lane now. */
  running: number;
  /** Requests waiting in some lane's queue now. */
  waiting: number;
  /** Tenants with a request running or waiting. */
  lanes: number;
  /** Requests admitted since start, and the seconds they waited for their slot in total. */
  admitted: number;
  waitSeconds: number;
  /** Requests refused SERVER_BUSY because their tenant's queue was full. */
  rejected: number;
}

/**
 * Per-tenant admission: each tenant database (owner and tenantId) runs at most `concurrency` requests at once; more
 * wait in that tenant's own FIFO queue, and past `queueLimit` waiting ones a request is refused with SERVER_BUSY and
 * a Retry-After from the tenant's recent request times. One tenant's burst fills its own lane, never another's: the
 * workers behind it see at most `concurrency` of its requests at a time.
 */
export class TenantGate {
  private readonly lanes = new Map<string, Lane>();
  // Kept as requests come and go, so a metrics scrape reads them without walking the lanes.
  private readonly totals = { running: 0, waiting: 0, admitted: 0, waitSeconds: 0, rejected: 0 };

  constructor(
    private readonly concurrency: number,
    private readonly queueLimit: number,
  ) {}

  /** Runs work in a tenant's lane; a waiting request leaves the queue when `signal` aborts (its deadline). */
  async run<T>(tenant: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const lane = this.lanes.get(tenant) ?? { running: 0, waiting: [], averageMs: 50 };
    this.lanes.set(tenant, lane);
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
        if (--lane.running === 0) this.lanes.delete(tenant);
      }
    }
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

  /** Requests running and waiting for a tenant (for tests and observability). */
  load(tenant: string): { running: number; waiting: number } {
    const lane = this.lanes.get(tenant);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
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
