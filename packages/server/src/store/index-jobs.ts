import type { InStatement } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import { allOf, visibleTo } from './scope-filter.js';

/** Why a memory is queued: it was added, or an edit changed what its vector or graph edges are derived from. */
export type IndexJobKind = 'add' | 'edit';

/** A job an indexer claimed. */
export interface IndexJob {
  id: number;
  memorySeq: number;
  memoryId: string;
  kind: IndexJobKind;
  /** Claims so far, this one included. */
  attempts: number;
  /** Bumped by an edit that re-queues the memory; a result computed from an older generation does not finish it. */
  generation: number;
}

interface IndexJobRow {
  id: number;
  memory_seq: number;
  memory_id: string;
  kind: IndexJobKind;
  attempts: number;
  generation: number;
}

/**
 * The statement queuing a memory for indexing, for the transaction that writes it. A memory has at most one job: an
 * edit of a queued memory resets its attempts and bumps its generation; a job held by an indexer stays held (its
 * lease keeps another indexer off until the holder has written, then released it), an unheld one is due at once.
 */
export function enqueueIndexJobStatement(memoryId: string, kind: IndexJobKind, now: Date): InStatement {
  return {
    sql: `INSERT INTO index_jobs (memory_seq, memory_id, kind, created_at)
          SELECT seq, id, ?, ? FROM memories WHERE id = ? AND deleted_at IS NULL
          ON CONFLICT (memory_seq) DO UPDATE SET kind = excluded.kind, attempts = 0, last_error_code = NULL,
            generation = generation + 1, claimed_until = CASE WHEN claimed_by IS NULL THEN 0 ELSE claimed_until END`,
    args: [kind, now.toISOString(), memoryId],
  };
}

/**
 * Claims up to `limit` due jobs, oldest first, with one statement: a job is due when unclaimed (`claimed_until` 0),
 * when its holder's lease has expired (a crashed process), or when its retry backoff is over. The UPDATE runs
 * atomically under the database's write lock, so two indexers (processes sharing one libSQL server) never both
 * claim a job while its lease holds.
 */
export async function claimIndexJobs(
  database: Database,
  claimant: string,
  options: { nowMs: number; leaseMs: number; limit: number },
): Promise<IndexJob[]> {
  // A read first: an indexer starts with every database that opens, and most have nothing waiting; the claim is a
  // write on the database's writer, which a tenant reopened per request would otherwise pay each time.
  const waiting = await database.get<{ found: number }>(
    'SELECT 1 AS found FROM index_jobs WHERE claimed_until <= ? LIMIT 1',
    [options.nowMs],
  );
  if (waiting === undefined) return [];
  const rows = await database.all<IndexJobRow>(
    `UPDATE index_jobs SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1
      WHERE id IN (SELECT id FROM index_jobs WHERE claimed_until <= ? ORDER BY id LIMIT ?)
      RETURNING id, memory_seq, memory_id, kind, attempts, generation`,
    [claimant, options.nowMs + options.leaseMs, options.nowMs, options.limit],
  );
  return rows
    .map((row) => ({
      id: Number(row.id),
      memorySeq: Number(row.memory_seq),
      memoryId: row.memory_id,
      kind: row.kind,
      attempts: Number(row.attempts),
      generation: Number(row.generation),
    }))
    .sort((left, right) => left.id - right.id);
}

/**
 * The statements finishing a claimed job, for the transaction that stores its results: the job is deleted unless an
 * edit re-queued the memory meanwhile, in which case it is released to be indexed again at once.
 */
export function finishIndexJobStatements(job: IndexJob, claimant: string): InStatement[] {
  return [
    {
      sql: 'DELETE FROM index_jobs WHERE id = ? AND claimed_by = ? AND generation = ?',
      args: [job.id, claimant, job.generation],
    },
    {
      sql: 'UPDATE index_jobs SET claimed_by = NULL, claimed_until = 0 WHERE id = ? AND claimed_by = ?',
      args: [job.id, claimant],
    },
  ];
}

/** The statement releasing a claimed job for a retry after `retryAtMs`, with the code of what failed. */
export function retryIndexJobStatement(
  job: IndexJob,
  claimant: string,
  errorCode: string,
  retryAtMs: number,
): InStatement {
  return {
    // A generation bumped by an edit is due at once: the failure was about the previous version.
    sql: `UPDATE index_jobs SET claimed_by = NULL, last_error_code = ?,
            claimed_until = CASE WHEN generation = ? THEN ? ELSE 0 END
          WHERE id = ? AND claimed_by = ?`,
    args: [errorCode, job.generation, retryAtMs, job.id, claimant],
  };
}

/**
 * How many live memories visible to a scope still wait for their vector and graph edges, counted up to `cap` (a
 * read's trace bounds the count, so a large backlog does not slow every read). CROSS JOIN keeps the queue the outer
 * loop: the planner otherwise walks the scope's memories (30 ms per read at 100k with an empty queue).
 */
export async function pendingIndexJobs(database: Database, scope: ResolvedScope, cap = -1): Promise<number> {
  const where = allOf({ sql: 'm.deleted_at IS NULL AND m.superseded_by IS NULL', args: [] }, visibleTo(scope, 'm'));
  const row = await database.get<{ count: number }>(
    `SELECT COUNT(*) AS count FROM (
       SELECT 1 FROM index_jobs j CROSS JOIN memories m ON m.seq = j.memory_seq WHERE ${where.sql} LIMIT ?)`,
    [...where.args, cap],
  );
  return Number(row?.count ?? 0);
}

/** The most pending memories a read's trace counts (`indexPending`). */
export const TRACE_PENDING_CAP = 10_000;
