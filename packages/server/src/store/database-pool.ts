import type { Worker } from 'node:worker_threads';
import { startWorkSpan } from '../observability/request-observation.js';
import { currentRequestSignal, deadlineExceeded, isBackgroundWork, throwIfRequestAborted } from '../request-scope.js';
import { spawnWorker } from '../spawn-worker.js';
import { DatabaseClosedError } from './database-connections.js';
import type { DatabaseReply, DatabaseRequest } from './database-messages.js';

/**
 * Requests one worker holds at once: a second one is ready the moment the first answers (no idle round trip). A
 * foreground write (`isWrite`) may be sent beside them, one at a time per worker, and the worker runs it next: it
 * waits for the statement running on its database's worker, not for the reads held or queued behind it. An add's
 * acknowledgement so stays a few milliseconds beside a tenant's hybrid readers, whose searches hold a worker ~10 ms.
 */
const PIPELINE_DEPTH = 2;

/** A request of any kind, before the pool numbers it. */
type Unnumbered = DatabaseRequest extends infer Request
  ? Request extends DatabaseRequest
    ? Omit<Request, 'id'>
    : never
  : never;

interface Job {
  request: Unnumbered;
  /** The deadline signal of the request the job runs for (none for background work). */
  signal: AbortSignal | undefined;
  /** Whether the job serves no request (`inBackground`: indexing, log flushes): its writes never go first. */
  background: boolean;
  /**
   * The job's database: whether it was closed since the job was queued (then the job never reaches a worker), and the
   * workers holding a connection to it (the pool adds the one it sends the job to). None for closes and counts.
   */
  route: DatabaseRoute | undefined;
  /** When it was queued (`performance.now()`). */
  queuedAt: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The error a worker reported, rebuilt on this side (the database's message; no stack from the other thread). */
export class DatabaseWorkerError extends Error {
  constructor(
    name: string,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = name;
  }
}

/** The pool's work so far and now, for metrics (`DatabasePool.stats`). */
export interface DatabasePoolStats {
  workers: number;
  /** Workers with a statement in flight now. */
  busyWorkers: number;
  /** Requests sent to a worker and not answered yet. */
  inFlight: number;
  /** Requests waiting on this side for a worker. */
  queued: number;
  /** Requests answered since start. */
  completed: number;
  /** Seconds the workers have spent with work in flight, summed over workers. */
  busySeconds: number;
}

/**
 * A write for the foreground (a request, or a group commit serving requests) on its database's home worker: it may go
 * ahead of the reads a worker holds. Background writes, closes and counts keep their turn.
 */
function isWrite(job: Job): boolean {
  return !job.background && (job.request.kind === 'execute' || job.request.kind === 'transaction');
}

/**
 * What the pool knows of the database a request runs on: whether it was closed, and which workers hold a connection to
 * it (a worker opens one the first time it runs a statement of the database).
 */
export interface DatabaseRoute {
  closed(): boolean;
  readonly connected: Set<number>;
}

/**
 * Shared reads a worker looks through for one of a database it holds a connection to: bounds the scan per pick (a
 * worker with nothing in flight then takes the oldest).
 */
const AFFINITY_SCAN = 64;
/**
 * How long a read waits for a worker holding a connection to its database before any worker may take it: 25 times
 * what opening and later closing a connection costs (~4 ms), so a read is never held long behind its database's busy
 * workers (their own writes and background work go first) while another worker runs other databases' reads.
 */
const AFFINITY_WAIT_MS = 100;

class PoolWorker {
  worker: Worker;
  readonly pinned: Job[] = [];
  readonly running = new Map<number, Job>();
  /** The id of the write sent beside the pipeline (see PIPELINE_DEPTH), while it runs. */
  writeAside: number | undefined;
  stopped = false;
  /** Answered requests, and busy time: finished stretches plus the one running since `busySince`. */
  completed = 0;
  busyMs = 0;
  busySince: number | undefined;

  constructor(
    /** Its place in the pool: what `DatabaseRoute.connected` holds. */
    readonly index: number,
    private readonly onSettled: () => void,
  ) {
    this.worker = this.start();
  }

  private start(): Worker {
    const worker = spawnWorker('database-worker');
    worker.on('message', (reply: DatabaseReply) => {
      const job = this.running.get(reply.id);
      this.running.delete(reply.id);
      if (this.writeAside === reply.id) this.writeAside = undefined;
      this.completed++;
      if (this.running.size === 0) {
        worker.unref();
        this.idle();
      }
      if (job !== undefined) {
        if (reply.ok) job.resolve(reply.value);
        else if (reply.error.code === 'DATABASE_CLOSED') job.reject(new DatabaseClosedError());
        else job.reject(new DatabaseWorkerError(reply.error.name, reply.error.message, reply.error.code));
      }
      this.onSettled();
    });
    // A worker that dies takes its connections with it; they reopen on the next request (each carries its path).
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      for (const job of this.running.values()) job.reject(new Error('The database worker stopped'));
      this.running.clear();
      this.writeAside = undefined;
      this.idle();
      if (!this.stopped && this.worker === worker) this.worker = this.start();
      this.onSettled();
    });
    // An idle worker never keeps the process alive (after the listeners: adding one refs the port again); one with
    // statements in flight does, until they answer (see send and the message listener).
    worker.unref();
    return worker;
  }

  /** Whether background work (`inBackground`) is among what the worker holds. */
  runsBackground(): boolean {
    for (const job of this.running.values()) if (job.background) return true;
    return false;
  }

  /** Milliseconds spent with work in flight, up to `now`. */
  busyUntil(now: number): number {
    return this.busyMs + (this.busySince === undefined ? 0 : now - this.busySince);
  }

  private idle(): void {
    if (this.busySince !== undefined) this.busyMs += performance.now() - this.busySince;
    this.busySince = undefined;
  }

  send(id: number, job: Job, pinned: boolean): void {
    job.route?.connected.add(this.index);
    if (this.running.size === 0) {
      this.worker.ref();
      this.busySince = performance.now();
    }
    this.running.set(id, job);
    const write = pinned && isWrite(job);
    this.worker.postMessage({ ...job.request, id, ...(write ? { write } : {}) } as DatabaseRequest);
  }
}

/**
 * Worker threads that hold the file databases' connections (STACK-NOTES: libSQL runs a `file:` statement
 * synchronously in the calling thread). A database's writes all go to one worker, its home, so they are serialised
 * on one connection as SQLite wants; its reads go to a free worker, each on that worker's own connection (WAL lets
 * them read beside the writer), preferring the workers that already hold one (see `takeShared`). The queues live on
 * this side, so a request whose deadline has passed is dropped before it reaches a worker.
 */
export class DatabasePool {
  private readonly workers: PoolWorker[] = [];
  private readonly shared: Job[] = [];
  private nextId = 1;
  private nextHome = 0;

  constructor(size: number) {
    for (let index = 0; index < Math.max(1, size); index++) this.workers.push(new PoolWorker(index, () => this.pump()));
  }

  /** How many worker threads the pool runs. */
  get size(): number {
    return this.workers.length;
  }

  /** The worker a new database's writes go to (round robin). */
  assignHome(): number {
    const home = this.nextHome % this.workers.length;
    this.nextHome++;
    return home;
  }

  /**
   * Runs a request on its home worker (`home`), or on any worker when `home` is null (a read). `route.closed` says
   * whether its database was closed while the request waited in the queue: such a request is answered
   * DatabaseClosedError instead of being sent, because a worker would reopen the connection for it and nothing would
   * close it again. A read goes to a worker that already holds a connection to its database when one is free to take
   * it (see `takeShared`).
   */
  run<T>(request: Unnumbered, home: number | null, route?: DatabaseRoute): Promise<T> {
    throwIfRequestAborted();
    // A request's own statements are spans of its trace (when tracing is on): the queue wait and the worker's time.
    const span = startWorkSpan(`db.${request.kind}`, { 'db.system.name': 'sqlite', 'memory.db.write': home !== null });
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        request,
        signal: currentRequestSignal(),
        background: isBackgroundWork(),
        route,
        queuedAt: performance.now(),
        resolve: (value) => {
          span?.end();
          resolve(value as T);
        },
        reject: (error) => {
          span?.end({ failed: true });
          reject(error);
        },
      };
      if (home === null) this.shared.push(job);
      else (this.workers[home % this.workers.length] as PoolWorker).pinned.push(job);
      this.pump();
    });
  }

  /** The pool's work so far and now (cheap: counters kept as requests come and go). */
  stats(): DatabasePoolStats {
    const now = performance.now();
    let queued = this.shared.length;
    let busyWorkers = 0;
    let inFlight = 0;
    let completed = 0;
    let busyMs = 0;
    for (const worker of this.workers) {
      queued += worker.pinned.length;
      inFlight += worker.running.size;
      if (worker.running.size > 0) busyWorkers++;
      completed += worker.completed;
      busyMs += worker.busyUntil(now);
    }
    return { workers: this.workers.length, busyWorkers, inFlight, queued, completed, busySeconds: busyMs / 1000 };
  }

  /** Runs a request on every worker. */
  broadcast(request: Unnumbered): Promise<unknown[]> {
    return this.runOn(request, this.workers.keys());
  }

  /** Runs a request on each of `workers` (closing a database's connections where it has them). */
  runOn(request: Unnumbered, workers: Iterable<number>): Promise<unknown[]> {
    return Promise.all([...workers].map((index) => this.run(request, index)));
  }

  /**
   * How many database connections the workers hold open, all workers together: at most the open databases times
   * the workers (a database has a connection on its home worker and one per worker that served it a read).
   */
  async openConnections(): Promise<number> {
    const counts = await this.broadcast({ kind: 'connections' });
    return counts.reduce<number>((total, count) => total + (count as number), 0);
  }

  /**
   * The next job for `worker` to run: its databases' own work first (writes keep their order), then the shared reads;
   * with `writesOnly`, a write at the head of its own work or nothing. A worker holding background work (an index
   * transaction, ~50 ms under load) takes no shared read to hold behind it: reads go to a worker that runs them
   * next, or wait here for one. Jobs that must not run are answered on the way.
   */
  private take(worker: PoolWorker, writesOnly = false): { job: Job; pinned: boolean } | undefined {
    for (;;) {
      const head = worker.pinned[0];
      if (writesOnly && (head === undefined || !isWrite(head))) return undefined;
      const pinned = head !== undefined;
      const job = pinned ? worker.pinned.shift() : worker.runsBackground() ? undefined : this.takeShared(worker);
      if (job === undefined) return job;
      if (job.route?.closed() === true) {
        // Its database closed while it waited (an evicted tenant): nothing ran, and a retry gets an open handle.
        job.reject(new DatabaseClosedError());
        continue;
      }
      if (job.signal?.aborted !== true) return { job, pinned };
      // Its request is past its deadline and has answered already: the statement is never run.
      job.reject(job.signal.reason instanceof Error ? job.signal.reason : deadlineExceeded(0));
    }
  }

  /**
   * The shared read `worker` runs next: the oldest of a database it holds a connection to, of one no worker holds yet,
   * or that has waited AFFINITY_WAIT_MS; with nothing in flight, the oldest of all. Opening a connection costs a worker ~2 ms (the file, its WAL, the
   * schema) and closing it as much again; when more tenants are in use than the open-database cache holds, each is
   * opened for about one request, whose reads so stay on its home worker's connection while the other worker has
   * reads of its own databases. A worker with nothing to run takes any read rather than idle beside a queue: a
   * tenant's reads spread over the workers whenever one is free, and it then keeps a connection on each.
   */
  private takeShared(worker: PoolWorker): Job | undefined {
    const scanned = Math.min(this.shared.length, AFFINITY_SCAN);
    const overdue = performance.now() - AFFINITY_WAIT_MS;
    for (let position = 0; position < scanned; position++) {
      const { route, queuedAt } = this.shared[position] as Job;
      const connected = route?.connected;
      if (connected === undefined || connected.size === 0 || connected.has(worker.index) || queuedAt <= overdue)
        return this.shared.splice(position, 1)[0];
    }
    return worker.running.size === 0 ? this.shared.shift() : undefined;
  }

  private pump(): void {
    for (const worker of this.workers) {
      while (worker.running.size < PIPELINE_DEPTH) {
        const next = this.take(worker);
        if (next === undefined) break;
        worker.send(this.nextId++, next.job, next.pinned);
      }
      // A full pipeline: the next write goes beside it, and the worker runs it before the reads it holds.
      if (worker.writeAside !== undefined) continue;
      const write = this.take(worker, true);
      if (write === undefined) continue;
      worker.writeAside = this.nextId++;
      worker.send(worker.writeAside, write.job, true);
    }
  }

  /** Stops every worker (their connections close with them). */
  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    for (const worker of workers) worker.stopped = true;
    await Promise.all(workers.map((worker) => worker.worker.terminate()));
  }
}

let shared: DatabasePool | undefined;

/**
 * The process's database pool, created on first use. Its size is the first configured one (`MEMORY_DATABASE_WORKERS`,
 * passed by `createServices`); servers that share a process share the pool, as they share its cores.
 */
export function sharedDatabasePool(size?: number): DatabasePool {
  shared ??= new DatabasePool(size ?? 2);
  return shared;
}
