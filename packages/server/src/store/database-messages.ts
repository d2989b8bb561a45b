/** A value a statement takes or a row holds, once it has crossed a thread (structured-clone safe). */
export type SqlValue = string | number | null | ArrayBuffer | Uint8Array | Float32Array | boolean | bigint;

/** A row: column names to values. */
export type SqlRow = Record<string, SqlValue>;

/** One statement with positional arguments. */
export interface StatementInput {
  sql: string;
  args: unknown[];
}

/** What one statement gave: its rows (statements that return none give `[]`) and the rows it changed. */
export interface StatementResult {
  rows: SqlRow[];
  rowsAffected: number;
}

/**
 * Which connection a request runs on: `key` names it in the worker, `path` opens it there on first use. `write`
 * marks a request's write on its database's home worker: the worker runs it before the reads it holds.
 */
interface Target {
  id: number;
  key: string;
  path: string;
  write?: boolean;
}

/** A message to a database worker. */
export type DatabaseRequest =
  | (Target & { kind: 'execute'; statement: StatementInput })
  | (Target & { kind: 'transaction'; statements: StatementInput[] })
  | (Target & { kind: 'close' })
  /** How many connections the worker holds open (the pool's count, for tests, the soak benchmark and metrics). */
  | { id: number; kind: 'connections' };

/** A database worker's answer to one request. */
export type DatabaseReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code: string | undefined } };
