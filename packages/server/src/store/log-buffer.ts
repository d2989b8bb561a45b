import type { InStatement } from '@libsql/client';

/** How long a log row may wait before it is written. */
const FLUSH_DELAY_MS = 250;
/** A buffer this full is written at once. */
const MAX_BUFFERED_ROWS = 500;

/**
 * Append-only log rows that reads write (retrieval metrics, retrieval events) are buffered per database and written
 * together in one transaction every FLUSH_DELAY_MS (or every MAX_BUFFERED_ROWS rows), so a read never waits for a
 * write transaction of its own. Code that reads those tables flushes first, so it sees every call made before it;
 * closing the database flushes too. A crash loses at most the last quarter second of log rows, never a memory.
 */
export class LogBuffer {
  private rows: InStatement[] = [];
  /** Housekeeping (pruning old rows) runs once per flush, not once per row: the latest statement per key. */
  private readonly housekeeping = new Map<string, InStatement>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private written: Promise<void> = Promise.resolve();
  /**
   * Told how many rows a failed flush lost, and why: the error's code, else its name (the tenant resolver logs both;
   * the database's message may quote SQL, so it is not passed on).
   */
  onDropped: ((rows: number, reason: string) => void) | undefined;

  constructor(private readonly write: (statements: InStatement[]) => Promise<unknown>) {}

  /** Buffers a log row, with an optional housekeeping statement to run at the next flush. */
  append(row: InStatement, housekeeping?: { key: string; statement: InStatement }): void {
    this.rows.push(row);
    if (housekeeping !== undefined) this.housekeeping.set(housekeeping.key, housekeeping.statement);
    if (this.rows.length >= MAX_BUFFERED_ROWS) {
      void this.flush();
      return;
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      this.timer.unref?.();
    }
  }

  /** Writes every buffered row; resolves when they (and any flush before) are written or dropped. Never throws. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.rows.length > 0 || this.housekeeping.size > 0) {
      const rows = this.rows;
      const statements = [...rows, ...this.housekeeping.values()];
      this.rows = [];
      this.housekeeping.clear();
      this.written = this.written.then(() =>
        this.write(statements).then(
          () => undefined,
          (error: unknown) => {
            this.onDropped?.(rows.length, reasonOf(error));
          },
        ),
      );
    }
    return this.written;
  }
}

/** An error's code (`SQLITE_FULL`, `DATABASE_CLOSED`), else its name: identifiers only, never its message. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code)) return code;
  return error instanceof Error && /^\w{1,64}$/.test(error.name) ? error.name : 'Error';
}
