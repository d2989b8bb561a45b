import { type Client, createClient } from '@libsql/client';
import type { StatementInput, StatementResult } from './database-messages.js';
import type { DatabasePool, DatabaseRoute } from './database-pool.js';

/** How long one call to a libSQL server may take before it fails (a hung server never holds a request forever). */
const REMOTE_CALL_TIMEOUT_MS = 15_000;

/** The two ways a `Database` reaches its data. */
export interface Connection {
  execute(statement: StatementInput): Promise<StatementResult>;
  /** Each statement's result: the rows it changed, and the rows it returned (`RETURNING`). */
  transaction(statements: StatementInput[]): Promise<StatementResult[]>;
  close(): Promise<void>;
}

/**
 * A call on a database that was closed under it: the server is shutting down, or the tenant's handle was evicted
 * while a long request still held it. Nothing ran; the same request again gets an open database (or another server).
 */
export class DatabaseClosedError extends Error {
  readonly code = 'DATABASE_CLOSED';
  constructor() {
    super('The database is closed');
    this.name = 'DatabaseClosedError';
  }
}

/** Statements that only read: they may run on any worker's connection. Anything else goes to the writer. */
function isRead(sql: string): boolean {
  return /^\s*SELECT\b/i.test(sql);
}

let nextKey = 1;

/** A `file:` database in the database workers: one home connection that writes, reader connections on demand. */
export class FileConnection implements Connection {
  private readonly key = `database-${nextKey++}`;
  private readonly home: number;
  /** An in-memory database exists once, on its home connection: nothing else can read it. */
  private readonly homeOnly: boolean;
  private closed = false;
  /** What the pool checks before it sends a queued statement, and the workers it sent this database's statements. */
  private readonly route: DatabaseRoute = { closed: () => this.closed, connected: new Set() };

  constructor(
    private readonly pool: DatabasePool,
    private readonly path: string,
  ) {
    this.home = pool.assignHome();
    this.homeOnly = path === ':memory:' || path.includes('mode=memory');
  }

  execute(statement: StatementInput): Promise<StatementResult> {
    this.assertOpen();
    const home = this.homeOnly || !isRead(statement.sql) ? this.home : null;
    return this.pool.run({ kind: 'execute', key: this.key, path: this.path, statement }, home, this.route);
  }

  transaction(statements: StatementInput[]): Promise<StatementResult[]> {
    this.assertOpen();
    return this.pool.run({ kind: 'transaction', key: this.key, path: this.path, statements }, this.home, this.route);
  }

  /**
   * Closes the connections the workers hold: only the workers that were ever sent a statement of this database have
   * one, and no statement is sent after this (the pool checks `closed` before it sends a queued one).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.runOn({ kind: 'close', key: this.key, path: this.path }, this.route.connected);
  }

  private assertOpen(): void {
    if (this.closed) throw new DatabaseClosedError();
  }
}

/** Bounds every request of a libSQL client's fetch by a timeout, keeping the caller's own signal. */
function boundedFetch(base: typeof fetch): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(REMOTE_CALL_TIMEOUT_MS);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return base(input, { ...init, signal });
  };
}

/** A database on a libSQL server (`sqld`, a hosted one): network calls, already off the event loop. */
export class RemoteConnection implements Connection {
  private readonly client: Client;
  private closed = false;

  constructor(location: { url: string; authToken?: string | undefined; fetch?: typeof fetch }) {
    this.client = createClient({
      url: location.url,
      ...(location.authToken ? { authToken: location.authToken } : {}),
      fetch: boundedFetch(location.fetch ?? fetch),
    });
  }

  async execute(statement: StatementInput): Promise<StatementResult> {
    const result = await this.call(() => this.client.execute({ sql: statement.sql, args: statement.args as never }));
    return { rows: result.rows as unknown as StatementResult['rows'], rowsAffected: result.rowsAffected };
  }

  async transaction(statements: StatementInput[]): Promise<StatementResult[]> {
    const results = await this.call(() =>
      this.client.batch(
        statements.map((statement) => ({ sql: statement.sql, args: statement.args as never })),
        'write',
      ),
    );
    return results.map((result) => ({
      rows: result.rows as unknown as StatementResult['rows'],
      rowsAffected: result.rowsAffected,
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client.close();
  }

  /** Runs a client call; one that fails because the client was closed under it says so as DatabaseClosedError. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new DatabaseClosedError();
    try {
      return await work();
    } catch (error) {
      throw this.closed ? new DatabaseClosedError() : error;
    }
  }
}
