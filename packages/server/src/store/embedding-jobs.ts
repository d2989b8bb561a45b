import type { InStatement } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import { allOf, visibleTo } from './scope-filter.js';

/** Where an embedding job came from. */
export type JobOrigin = 'write' | 'backfill';

/** The outcome of embedding one memory. */
export interface JobOutcome {
  memoryId: string;
  modelId: string;
  origin: JobOrigin;
  userId: string | null;
  projectId: string | null;
  /** Null on success. */
  error: { code: string; message: string } | null;
}

/** Job rows older than this are pruned: the longest observability window is 168 h (7 days). */
const RETENTION_MS = 8 * 24 * 3_600_000;

/** The statement recording one job. */
export function jobStatement(outcome: JobOutcome, now: Date): InStatement {
  return {
    sql: `INSERT INTO embedding_jobs (memory_id, model_id, origin, status, error_code, error_message, user_id,
            project_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      outcome.memoryId,
      outcome.modelId,
      outcome.origin,
      outcome.error === null ? 'succeeded' : 'failed',
      outcome.error?.code ?? null,
      outcome.error?.message ?? null,
      outcome.userId,
      outcome.projectId,
      now.toISOString(),
    ],
  };
}

/** The statement pruning job rows past retention (keeps the table bounded). */
export function pruneJobsStatement(now: Date): InStatement {
  return {
    sql: 'DELETE FROM embedding_jobs WHERE created_at < ?',
    args: [new Date(now.getTime() - RETENTION_MS).toISOString()],
  };
}

/** Worker figures of a window: jobs that stored a vector, jobs that failed, and the commonest error codes. */
export interface WorkerFigures {
  processed: number;
  failed: number;
  errorCodes: Array<{ code: string; count: number }>;
}

/** Worker figures since a time, for the memories visible to a scope (and one model, when given). */
export async function workerFigures(
  database: Database,
  scope: ResolvedScope,
  since: Date,
  modelId?: string,
): Promise<WorkerFigures> {
  const where = allOf(
    { sql: 'created_at >= ?', args: [since.toISOString()] },
    visibleTo(scope),
    ...(modelId === undefined ? [] : [{ sql: 'model_id = ?', args: [modelId] }]),
  );
  const totals = await database.get<{ processed: number | null; failed: number | null }>(
    `SELECT SUM(status = 'succeeded') AS processed, SUM(status = 'failed') AS failed
       FROM embedding_jobs WHERE ${where.sql}`,
    where.args,
  );
  const codes = await database.all<{ code: string; count: number }>(
    `SELECT error_code AS code, COUNT(*) AS count FROM embedding_jobs
      WHERE ${where.sql} AND status = 'failed' GROUP BY error_code`,
    where.args,
  );
  return {
    processed: Number(totals?.processed ?? 0),
    failed: Number(totals?.failed ?? 0),
    errorCodes: codes.map((row) => ({ code: row.code, count: Number(row.count) })),
  };
}
