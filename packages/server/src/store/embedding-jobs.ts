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

/**
 * Worker figures since a time, for the memories visible to a scope (and one model, when given): one pass over the
 * window's jobs, counted by status and error code (a backfill of 100k memories leaves 100k jobs in the window).
 */
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
  const groups = await database.all<{ status: string; code: string | null; count: number }>(
    `SELECT status, error_code AS code, COUNT(*) AS count FROM embedding_jobs WHERE ${where.sql}
      GROUP BY status, error_code`,
    where.args,
  );
  const count = (status: string) =>
    groups.filter((group) => group.status === status).reduce((sum, group) => sum + Number(group.count), 0);
  return {
    processed: count('succeeded'),
    failed: count('failed'),
    errorCodes: groups
      .filter((group) => group.status === 'failed' && group.code !== null)
      .map((group) => ({ code: group.code as string, count: Number(group.count) })),
  };
}
