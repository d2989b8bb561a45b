/**
 * A database worker thread: holds libSQL file connections and runs statements on them, so the synchronous SQLite
 * work never runs on the server's event loop. Messages are handled one at a time: a request's writes before the
 * reads waiting beside them, each kind in arrival order (see `nextTurn`).
 *
 * It talks to `store/database-pool.ts` with the messages of `store/database-messages.ts`. Values are converted as
 * `@libsql/client` converts them (integers to numbers, blobs to ArrayBuffers), so callers see the same rows.
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import type {
  DatabaseReply,
  DatabaseRequest,
  SqlRow,
  SqlValue,
  StatementInput,
  StatementResult,
} from '../store/database-messages.js';
import { pageCacheKibFor } from '../store/page-cache.js';

/** The parts of the `libsql` binding's API this worker uses (the package ships no TypeScript types we rely on). */
interface NativeStatement {
  raw(toggle?: boolean): NativeStatement;
  safeIntegers(toggle?: boolean): NativeStatement;
  columns(): Array<{ name: string }>;
  all(parameters: unknown[]): unknown[][];
  run(parameters: unknown[]): { changes: number };
}
interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}
type NativeDatabaseConstructor = new (path: string) => NativeDatabase;

const NativeDatabase = createRequire(import.meta.url)('libsql') as NativeDatabaseConstructor;

/** Prepared statements kept per connection: a hot query skips SQLite's parse and plan (~0.1 ms per call). */
const STATEMENT_CACHE_SIZE = 256;

interface PreparedStatement {
  statement: NativeStatement;
  /** Column names when the statement returns rows; null for statements that do not. */
  columns: string[] | null;
  /** A write that returns its rows (`RETURNING`): one row per row it changed. */
  returning: boolean;
}

/**
 * The page size of the databases this server creates: 8 KB, not SQLite's 4 KB. A vector index node (a vector and its
 * 32 neighbours' compressed vectors, ~14 KB) then spans two pages instead of four, and each insert rewrites ~33 of
 * them. On the 100k workspace copied at each size (BENCHMARKS.md, "Issue 27, eleventh round"): a DiskANN insert 3.9-4.1
 * -> 2.9-3.0 ms, hybrid `context/get` p50 49.9 -> 46.4 ms, lexical p95 15.2 -> 13.7 ms, adds within noise; 16 KB sped
 * inserts more (2.4 ms) but nearly doubled an add's p95 (each small write logs whole pages to the WAL).
 */
const PAGE_SIZE = 8192;

/** One open connection with its statement cache (the least recently used statements go first). */
class Connection {
  private readonly statements = new LRUCache<string, PreparedStatement>({ max: STATEMENT_CACHE_SIZE });

  constructor(
    readonly native: NativeDatabase,
    path: string,
  ) {
    // First, so that even switching the journal mode waits for another connection's write instead of failing.
    native.exec('PRAGMA busy_timeout = 5000');
    // Before WAL, which fixes it: a database this creates gets PAGE_SIZE pages (a no-op for one that exists).
    native.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    native.exec('PRAGMA journal_mode = WAL');
    // WAL with synchronous NORMAL: a committed transaction is in the WAL before the call returns (survives kill -9).
    native.exec('PRAGMA synchronous = NORMAL');
    // Reads the header and the schema: a file that is not a database, or whose schema is damaged, fails here with
    // SQLite's own error instead of on a later request (the caller refuses the database; it never starts empty).
    native.exec('PRAGMA schema_version');
    native.exec('PRAGMA foreign_keys = ON');
    native.exec(`PRAGMA cache_size = -${pageCacheKibFor(path)}`);
  }

  prepared(sql: string): PreparedStatement {
    const cached = this.statements.get(sql);
    if (cached !== undefined) return cached;
    const statement = this.native.prepare(sql);
    statement.safeIntegers(true);
    let columns: string[] | null = null;
    try {
      statement.raw(true);
      columns = statement.columns().map((column) => column.name);
    } catch {
      // raw() throws for a statement that returns no rows.
    }
    const returning = columns !== null && !/^\s*SELECT\b/i.test(sql) && /\bRETURNING\b/i.test(sql);
    const entry = { statement, columns, returning };
    this.statements.set(sql, entry);
    return entry;
  }

  execute(input: StatementInput): StatementResult {
    const { statement, columns, returning } = this.prepared(input.sql);
    const parameters = input.args.map(toSql);
    if (columns === null) return { rows: [], rowsAffected: statement.run(parameters).changes };
    const rows = statement.all(parameters).map((values) => toRow(values, columns));
    return { rows, rowsAffected: returning ? rows.length : 0 };
  }

  close(): void {
    this.statements.clear();
    try {
      // Everything committed moves from the WAL into the database file, and the WAL is emptied: a copy of the `.db`
      // file alone (a backup taken after shutdown) holds every write. Busy (another connection reads): the last
      // connection to close checkpoints anyway. Without waiting: a TRUNCATE checkpoint calls the busy handler until
      // every reader is done, and this thread serves other databases meanwhile (a tenant reopened while its old handle
      // closes stalled its worker for seconds per close).
      this.native.exec('PRAGMA busy_timeout = 0');
      this.native.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Nothing to lose: the WAL stays and is replayed by the next open.
    }
    this.native.close();
  }
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function fromSql(value: unknown): SqlValue {
  if (typeof value === 'bigint') {
    if (value < MIN_SAFE || value > MAX_SAFE)
      throw new RangeError('Received integer which cannot be safely represented as a JavaScript number');
    return Number(value);
  }
  if (Buffer.isBuffer(value)) {
    // A copy of exactly the blob's bytes (a Buffer may be a view into a larger shared slab).
    const copy = new ArrayBuffer(value.byteLength);
    new Uint8Array(copy).set(value);
    return copy;
  }
  return value as SqlValue;
}

function toSql(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError('undefined cannot be passed as argument to the database');
  return value;
}

/** A row as `@libsql/client` gives it: column names to values (the first of two equal names wins). */
function toRow(values: unknown[], columns: string[]): SqlRow {
  const row: SqlRow = {};
  values.forEach((value, index) => {
    const column = columns[index] as string;
    if (!Object.hasOwn(row, column)) row[column] = fromSql(value);
  });
  return row;
}

const connections = new Map<string, Connection>();

/**
 * Keys of connections closed here. A key names one `Database` for its whole life and is never reused, so a statement
 * that reaches this worker after its close (the pool drops those, this is the second line) must not reopen the file:
 * nothing would ever close that connection again (handles would leak under tenant churn). Bounded: a
 * statement for a key closed this long ago can no longer be in flight.
 */
const closedKeys = new LRUCache<string, true>({ max: 16_384 });

/** The error of a statement for a closed connection; the pool rebuilds it as `DatabaseClosedError` (nothing ran). */
function closedError(): Error {
  return Object.assign(new Error('The database is closed'), { name: 'DatabaseClosedError', code: 'DATABASE_CLOSED' });
}

/** V8's `gc` as `--expose-gc` gives it: `execution: 'async'` runs the marking beside the thread's own work. */
type CollectGarbage = (options: { type: 'major'; execution: 'async' | 'sync' }) => unknown;

/**
 * libSQL releases a connection's file descriptors and page cache only when the connection AND every statement
 * prepared on it are gone, and a statement goes only when this thread's garbage collector finalizes it: `close()`
 * alone leaves the files open (measured: 2-3 descriptors per closed connection, for as long as the thread stays idle,
 * which an idle worker can do for ever). So after closing connections the worker asks for a full collection.
 * `--expose-gc` is a V8 flag a worker cannot take in its `execArgv`; setting it at run time and fetching `gc` from a
 * fresh context is V8's way to get the function. Without it (an embedder that refuses the flag) the files are
 * released by the next natural collection.
 */
const collectGarbage: CollectGarbage | null = (() => {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as CollectGarbage) : null;
  } catch {
    return null;
  }
})();

/**
 * Closes within RELEASE_INTERVAL_MS share one collection. A synchronous full collection of a worker's heap took
 * 25-35 ms under tenant churn (measured: one per close halved the statements a worker served); an asynchronous one,
 * at most every 100 ms, kept the files of closed connections within ~100 ms of closes and the throughput of no
 * collection at all (handle-leaks.test.ts, BENCHMARKS.md "Soak").
 */
const RELEASE_INTERVAL_MS = 100;
let releaseTimer: ReturnType<typeof setTimeout> | undefined;
let releasedAt = Number.NEGATIVE_INFINITY;

function releaseClosedFiles(): void {
  if (collectGarbage === null || releaseTimer !== undefined) return;
  releaseTimer = setTimeout(
    () => {
      releaseTimer = undefined;
      releasedAt = Date.now();
      try {
        collectGarbage({ type: 'major', execution: 'async' });
      } catch {
        collectGarbage({ type: 'major', execution: 'sync' });
      }
    },
    Math.max(0, releasedAt + RELEASE_INTERVAL_MS - Date.now()),
  );
  // Never keeps the thread (or the process) alive on its own.
  releaseTimer.unref();
}

/** How long opening a connection keeps retrying while another connection holds a lock it needs. */
const OPEN_BUSY_RETRY_MS = 10_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Opens a connection. Switching a new database to WAL takes an exclusive lock that SQLite does not wait for (its busy
 * handler is not called there), so when several connections open one new database at once (servers starting
 * together, a reader beside the writer) the losers retry for a while instead of failing the request.
 */
function openConnection(path: string): Connection {
  const started = Date.now();
  for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
    const native = new NativeDatabase(path);
    try {
      return new Connection(native, path);
    } catch (error) {
      native.close();
      if (!isBusy(error) || Date.now() - started > OPEN_BUSY_RETRY_MS) throw error;
      Atomics.wait(sleeper, 0, 0, pause);
    }
  }
}

function connection(key: string, path: string): Connection {
  let open = connections.get(key);
  if (open === undefined) {
    if (closedKeys.has(key)) throw closedError();
    open = openConnection(path);
    connections.set(key, open);
  }
  return open;
}

function close(key: string): void {
  closedKeys.set(key, true);
  const open = connections.get(key);
  if (open === undefined) return;
  connections.delete(key);
  try {
    open.close();
  } finally {
    releaseClosedFiles();
  }
}

function handle(request: DatabaseRequest): unknown {
  switch (request.kind) {
    case 'execute':
      return connection(request.key, request.path).execute(request.statement);
    case 'transaction': {
      const target = connection(request.key, request.path);
      target.native.exec('BEGIN IMMEDIATE');
      try {
        const results = request.statements.map((statement) => target.execute(statement));
        target.native.exec('COMMIT');
        return results;
      } catch (error) {
        if (target.native.inTransaction) target.native.exec('ROLLBACK');
        throw error;
      }
    }
    case 'close':
      close(request.key);
      return null;
    case 'connections':
      return connections.size;
  }
}
function answer(request: DatabaseRequest): void {
  let reply: DatabaseReply;
  try {
    reply = { id: request.id, ok: true, value: handle(request) };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const code = (failure as Error & { code?: unknown }).code;
    reply = {
      id: request.id,
      ok: false,
      error: { name: failure.name, message: failure.message, code: typeof code === 'string' ? code : undefined },
    };
  }
  parentPort?.postMessage(reply);
}

/**
 * Requests waiting here: those the pool marks `write` (a request's writes, see `isWrite` in the pool) run before the
 * reads, closes and background writes that arrived earlier; each kind keeps its arrival order. One request per turn
 * of the event loop, so what arrived while a statement ran is sorted before the next one starts.
 */
const writes: DatabaseRequest[] = [];
const others: DatabaseRequest[] = [];
let turnScheduled = false;

function nextTurn(): void {
  if (turnScheduled || (writes.length === 0 && others.length === 0)) return;
  turnScheduled = true;
  setImmediate(() => {
    turnScheduled = false;
    const request = writes.shift() ?? others.shift();
    if (request !== undefined) answer(request);
    nextTurn();
  });
}

parentPort?.on('message', (request: DatabaseRequest) => {
  (request.kind !== 'connections' && request.write === true ? writes : others).push(request);
  nextTurn();
});
