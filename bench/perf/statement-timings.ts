import type { DatabasePool } from '../../packages/server/src/store/database-pool.js';

/** What one kind of database request cost over a recording. */
export interface StatementCost {
  label: string;
  count: number;
  /** Summed wall time from the pool's queue to the answer, ms. */
  ms: number;
}

/**
 * Times every request the database pool runs while `recording` is on, by statement (its first 90 characters), by a
 * transaction's first statement, or by kind (`close`): wall time on the calling thread, queueing included. For
 * one-at-a-time profiles, where queueing is small.
 */
export class StatementTimings {
  recording = false;
  private readonly costs = new Map<string, { count: number; ms: number }>();

  constructor(pool: DatabasePool) {
    const run = pool.run.bind(pool);
    pool.run = (async (...args: Parameters<typeof run>) => {
      const started = performance.now();
      try {
        return await run(...args);
      } finally {
        if (this.recording) this.add(labelOf(args[0]), performance.now() - started);
      }
    }) as typeof pool.run;
  }

  private add(label: string, ms: number): void {
    const entry = this.costs.get(label) ?? { count: 0, ms: 0 };
    entry.count++;
    entry.ms += ms;
    this.costs.set(label, entry);
  }

  /** The costliest kinds of request, most summed time first. */
  costliest(top = 25): StatementCost[] {
    return [...this.costs]
      .map(([label, { count, ms }]) => ({ label, count, ms }))
      .sort((left, right) => right.ms - left.ms)
      .slice(0, top);
  }

  /** Prints the costliest kinds per unit of work (`per`: requests made while recording). */
  print(per: number, top = 25): void {
    for (const { label, count, ms } of this.costliest(top))
      console.log(`${(ms / per).toFixed(2).padStart(7)} ms each  ${String(count).padStart(6)}x  ${label}`);
  }
}

function labelOf(request: Parameters<DatabasePool['run']>[0]): string {
  const flat = (sql: string | undefined, length: number) => (sql ?? '').replace(/\s+/g, ' ').slice(0, length);
  if (request.kind === 'execute') return flat(request.statement.sql, 90);
  if (request.kind === 'transaction')
    return `transaction of ${request.statements.length}: ${flat(request.statements[0]?.sql, 60)}`;
  return request.kind;
}
