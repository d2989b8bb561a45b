import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Client, createClient, type InArgs, type InStatement, type Row } from '@libsql/client';
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

/** A thin wrapper over a libSQL client: typed rows, batches, and the pragmas we rely on. */
export class Database {
  readonly client: Client;
  readonly isFile: boolean;
  private statisticsAt = Number.NEGATIVE_INFINITY;
  /** Log rows written by reads, buffered and written in batches (see LogBuffer). */
  readonly logs = new LogBuffer((statements) => this.transaction(statements));

  private constructor(client: Client, isFile: boolean) {
    this.client = client;
    this.isFile = isFile;
  }

  /**
   * Opens a database. File databases get WAL journaling with `synchronous = NORMAL`: a committed
   * transaction is in the WAL before the call returns, so it survives the process being killed.
   */
  static async open(location: DatabaseLocation): Promise<Database> {
    const isFile = location.url.startsWith('file:');
    if (isFile) {
      const file = location.url.slice('file:'.length);
      if (file !== ':memory:' && file !== '') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    }
    const client = createClient({
      url: location.url,
      ...(location.authToken ? { authToken: location.authToken } : {}),
      ...(location.fetch ? { fetch: location.fetch } : {}),
    });
    const database = new Database(client, isFile);
    if (isFile) {
      await client.execute('PRAGMA journal_mode = WAL');
      await client.execute('PRAGMA synchronous = NORMAL');
      await client.execute('PRAGMA busy_timeout = 5000');
      await client.execute('PRAGMA foreign_keys = ON');
    }
    return database;
  }

  /** Runs one statement and returns its rows. */
  async all<T = Row>(sql: string, args: InArgs = []): Promise<T[]> {
    const result = await this.client.execute({ sql, args });
    return result.rows as unknown as T[];
  }

  /** Runs one statement and returns its first row, if any. */
  async get<T = Row>(sql: string, args: InArgs = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, args);
    return rows[0];
  }

  /** Runs one statement and returns the number of rows it changed. */
  async run(sql: string, args: InArgs = []): Promise<number> {
    const result = await this.client.execute({ sql, args });
    return result.rowsAffected;
  }

  /** Runs statements atomically in one write transaction. */
  async transaction(statements: InStatement[]): Promise<number[]> {
    if (statements.length === 0) return [];
    const results = await this.client.batch(statements, 'write');
    return results.map((result) => result.rowsAffected);
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
    try {
      await this.client.execute(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}`);
      await this.client.execute('ANALYZE');
    } catch {
      // A read-only or remote database may refuse; plans fall back to SQLite's defaults.
    }
  }

  /** Writes the buffered log rows, then closes the connection. */
  async close(): Promise<void> {
    await this.logs.flush();
    this.client.close();
  }
}
