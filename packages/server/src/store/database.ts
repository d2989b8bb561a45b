import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import type { InArgs, InStatement, Row } from '@libsql/client';
import { inBackground, outsideRequestScope } from '../request-scope.js';
import { type Connection, FileConnection, RemoteConnection } from './database-connections.js';
import type { StatementInput, StatementResult } from './database-messages.js';
import { type DatabasePool, sharedDatabasePool } from './database-pool.js';
import { LogBuffer } from './log-buffer.js';

/** Rows sampled per index by ANALYZE (SQLite's `analysis_limit`): bounds its cost on a large tenant. */
const ANALYSIS_LIMIT = 1_000;
/** Planner statistics older than this are refreshed (a tenant may grow from empty to 100k memories in an hour). */
const STATISTICS_MAX_AGE_MS = 60 * 60 * 1000;

/** How to reach a libSQL database: a `file:` path, or a `libsql://`/`http(s)://` server with a token. */
export interface DatabaseLocation {
  url: string;
  authToken?: string | undefined;
  /** Custom fetch (sqld namespaces are picked by Host header). */
  fetch?: typeof fetch;
}

function toInput(statement: InStatement): StatementInput {
  if (typeof statement === 'string') return { sql: statement, args: [] };
  return { sql: statement.sql, args: (statement.args ?? []) as unknown[] };
}

/**
 * Creates a file database's missing folders as 0700 and the file itself, empty, as 0600 before SQLite opens it
 * (so other users of the machine cannot read the memories): SQLite keeps an existing file's mode and gives its -wal
 * and -shm files the same one, whatever the process umask. An existing folder or file keeps its mode.
 */
/**
 * Database files this process is creating: until the first open has switched one to WAL it is legitimately empty,
 * and a second handle opened at the same moment must not take it for a truncated database.
 */
const createdHere = new Set<string>();

/**
 * Creates a file database's folder (0700) and, when missing, its file (0600) before SQLite opens it; returns whether
 * this process is creating the file (its first open has not finished yet).
 */
function createPrivately(file: string): boolean {
  const resolved = path.resolve(file);
  mkdirSync(path.dirname(resolved), { recursive: true, mode: 0o700 });
  // A URL with parameters (`?mode=ro`) is SQLite's to interpret.
  if (file.includes('?')) return false;
  try {
    closeSync(openSync(resolved, 'wx', 0o600));
    createdHere.add(resolved);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  return createdHere.has(resolved);
}

/** The error of a database file that exists but is empty: a truncated database, never a new one to start afresh. */
export class EmptyDatabaseFileError extends Error {
  readonly code = 'DATABASE_FILE_EMPTY';
  constructor() {
    super('The database file is empty (truncated?) and has no write-ahead log to recover from');
    this.name = 'EmptyDatabaseFileError';
  }
}

/**
 * Whether an existing file database is empty with nothing to recover: SQLite writes the first page when a file is
 * switched to WAL (4 KiB before any table exists), so an empty file that this call did not create, with no
 * write-ahead log holding frames, lost its content (truncated, a failed copy). SQLite itself would start it afresh.
 */
function isTruncated(file: string): boolean {
  if (file.includes('?')) return false;
  const size = (target: string) => (existsSync(target) ? statSync(target).size : 0);
  return size(file) === 0 && size(`${file}-wal`) === 0;
}

/**
 * A libSQL database with typed rows and atomic batches. A `file:` database runs in the database worker threads (the
 * event loop never waits on SQLite); a libSQL server is reached over the network by `@libsql/client`, each call
 * bounded by a timeout.
 */
export class Database {
  readonly isFile: boolean;
  private statisticsAt = Number.NEGATIVE_INFINITY;
  /**
   * Log rows written by reads, buffered and written in batches (see LogBuffer). A flush serves every request that
   * buffered a row, so it runs as background work: outside the scope (and deadline) of the request that happens to
   * trigger it, and its write keeps its turn behind requests' reads.
   */
  readonly logs = new LogBuffer((statements) => inBackground(() => this.transaction(statements)));

  private constructor(private readonly connection: Connection) {
    this.isFile = connection instanceof FileConnection;
  }

  /**
   * Opens a database. File databases get WAL journaling with `synchronous = NORMAL`: a committed transaction is in
   * the WAL before the call returns, so it survives the process being killed.
   */
  static async open(location: DatabaseLocation, pool: DatabasePool = sharedDatabasePool()): Promise<Database> {
    if (!location.url.startsWith('file:')) return new Database(new RemoteConnection(location));
    const file = location.url.slice('file:'.length);
    const onDisk = file !== ':memory:' && file !== '';
    if (onDisk && !createPrivately(file) && isTruncated(file)) throw new EmptyDatabaseFileError();
    const database = new Database(new FileConnection(pool, file === '' ? ':memory:' : file));
    // Opens the home connection now, so a file that cannot be opened fails here and not on a later request.
    await database.run('PRAGMA foreign_keys = ON');
    // In WAL mode now, so never empty again: from here on an empty file means a truncated one.
    if (onDisk) createdHere.delete(path.resolve(file));
    return database;
  }

  /** Runs one statement and returns its rows. */
  async all<T = Row>(sql: string, args: InArgs = []): Promise<T[]> {
    const result = await this.connection.execute({ sql, args: args as unknown[] });
    return result.rows as unknown as T[];
  }

  /** Runs one statement and returns its first row, if any. */
  async get<T = Row>(sql: string, args: InArgs = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, args);
    return rows[0];
  }

  /** Whether the schema holds a table or an index of this name. */
  async hasSchemaObject(type: 'table' | 'index', name: string): Promise<boolean> {
    const found = await this.get('SELECT 1 AS found FROM sqlite_schema WHERE type = ? AND name = ?', [type, name]);
    return found !== undefined;
  }

  /** Runs one statement and returns the number of rows it changed. */
  async run(sql: string, args: InArgs = []): Promise<number> {
    const result = await this.connection.execute({ sql, args: args as unknown[] });
    return result.rowsAffected;
  }

  /** Runs statements atomically in one write transaction; returns the rows each changed. */
  async transaction(statements: InStatement[]): Promise<number[]> {
    const results = await this.transactionResults(statements);
    return results.map((result) => result.rowsAffected);
  }

  /**
   * Runs statements atomically in one write transaction; returns each one's result, with the rows a `RETURNING`
   * statement gave (a write that needs its rows back gets them without a read after the commit).
   */
  async transactionResults(statements: InStatement[]): Promise<StatementResult[]> {
    if (statements.length === 0) return [];
    return this.connection.transaction(statements.map(toInput));
  }

  /**
   * Refreshes the query planner's statistics (a sampled ANALYZE, at most `analysis_limit` rows per index, about 0.1 s
   * on a 100k-memory tenant) when they are missing or older than STATISTICS_MAX_AGE_MS. Without statistics SQLite
   * may pick an index that matches every row of a tenant and sort them all, where walking another index and
   * stopping at the limit costs a few rows. Never throws: statistics only steer plans.
   */
  async refreshStatistics(nowMs = Date.now()): Promise<void> {
    if (nowMs - this.statisticsAt < STATISTICS_MAX_AGE_MS) return;
    this.statisticsAt = nowMs;
    await this.analyze();
  }

  /**
   * At open: takes planner statistics when `table` has rows and none were taken, or has at least doubled since they
   * were (their row estimate against its highest rowid); then `refreshStatistics` keeps them an hour fresh while it
   * stays open. A plan changes with the table's order of magnitude, not with each write, so a database reopened
   * without growing (a tenant evicted and reopened, once per request when more tenants are in use than the cache
   * holds) skips the ANALYZE: a write on its writer, 2 ms on a small database and 20 ms at 100k memories.
   */
  async refreshStatisticsOnOpen(table: string, nowMs = Date.now()): Promise<void> {
    this.statisticsAt = nowMs;
    try {
      const size = await this.get<{ rows: number | null }>(`SELECT max(rowid) AS rows FROM ${table}`);
      const rows = Number(size?.rows ?? 0);
      if (rows === 0) return;
      const estimate = await this.statisticsEstimate(table);
      if (estimate !== null && rows < 2 * estimate) return;
    } catch {
      return; // No such table (a database without it): nothing to describe.
    }
    await this.analyze();
  }

  /** The largest row count the planner statistics hold for `table`, or null when it has none. */
  private async statisticsEstimate(table: string): Promise<number | null> {
    if (!(await this.hasSchemaObject('table', 'sqlite_stat1'))) return null;
    const row = await this.get<{ estimate: number | null }>(
      'SELECT max(CAST(stat AS INTEGER)) AS estimate FROM sqlite_stat1 WHERE tbl = ?',
      [table],
    );
    return row?.estimate == null ? null : Number(row.estimate);
  }

  private async analyze(): Promise<void> {
    try {
      await inBackground(async () => {
        await this.run(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}`);
        await this.run('ANALYZE');
      });
    } catch {
      // A read-only or remote database may refuse; plans fall back to SQLite's defaults.
    }
  }

  /**
   * Writes the buffered log rows, then closes the connection. Outside any request's scope: a close started by a
   * request past its deadline (an eviction timer, a mapping change) must still reach every worker, or their
   * connections would stay open.
   */
  async close(): Promise<void> {
    await outsideRequestScope(async () => {
      try {
        await this.logs.flush();
      } finally {
        // Whatever the flush met, the connections close: a handle left open is never closed by anything else.
        await this.connection.close();
      }
    });
  }
}
