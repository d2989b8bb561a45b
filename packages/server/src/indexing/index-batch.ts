import type { InStatement } from '@libsql/client';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import { embedWrittenMemories } from '../embeddings/write-hook.js';
import { extractGraphAfterWrites } from '../graph/extract-after-write.js';
import type { Logger } from '../logger.js';
import { finishIndexJobStatements, type IndexJob, retryIndexJobStatement } from '../store/index-jobs.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';

/** Claims a job gets before it is given up (its memory then waits for the embedding backfill). */
export const MAX_INDEX_ATTEMPTS = 5;
/**
 * The first retry's delay; each later one waits four times longer (30 s, 2 min, 8 min, 32 min): a provider that
 * rate-limits or is down gets time to recover, and a memory gives up its job within the hour.
 */
const RETRY_BASE_MS = 30_000;

/** What indexing one batch needs. */
export interface IndexBatchTarget {
  tenant: TenantDatabase;
  /** Who holds the batch's claims. */
  claimant: string;
  registry: EmbeddingRegistry;
  /** The model of memories that name none. */
  defaultModel: string;
  logger: Logger;
  /** The record time (usage month, graph timestamps). */
  now: Date;
  /** Wall-clock milliseconds, for retry backoff. */
  nowMs: number;
}

function retryAt(job: IndexJob, nowMs: number): number {
  return nowMs + RETRY_BASE_MS * 4 ** (job.attempts - 1);
}

/** A claimed batch whose vectors are stored: its live memories and the statements finishing each one's job. */
export interface EmbeddedBatch {
  live: Array<{ job: IndexJob; row: MemoryRow }>;
  /** By memory id: the job's finish (or its release for a retry, when the memory could not be embedded). */
  finish: Map<string, InStatement[]>;
}

/** A job's release for a retry with backoff, or its finish once its attempts have run out. */
function retryOrFinish(target: IndexBatchTarget, job: IndexJob, errorCode: string): InStatement[] {
  return job.attempts < MAX_INDEX_ATTEMPTS
    ? [retryIndexJobStatement(job, target.claimant, errorCode, retryAt(job, target.nowMs))]
    : finishIndexJobStatements(job, target.claimant);
}

/**
 * The first step of indexing claimed jobs: drops those whose memory was forgotten, superseded or purged (or that ran
 * out of attempts), then embeds the rest in one call per model and project and stores their vectors. A memory whose
 * embedding failed keeps its job, to be released for a retry with backoff until the attempts run out (the backfill
 * covers it after that).
 */
export async function embedBatch(target: IndexBatchTarget, jobs: readonly IndexJob[]): Promise<EmbeddedBatch> {
  const { tenant, claimant } = target;
  const empty: EmbeddedBatch = { live: [], finish: new Map() };
  if (jobs.length === 0) return empty;
  const rows = await tenant.memories.findBySeqs(jobs.map((job) => job.memorySeq));
  const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
  const live: EmbeddedBatch['live'] = [];
  const dropped: InStatement[] = [];
  for (const job of jobs) {
    const row = bySeq.get(job.memorySeq);
    const gone = row === undefined || row.deleted_at !== null || row.superseded_by !== null;
    if (!gone && job.attempts > MAX_INDEX_ATTEMPTS)
      target.logger.warn('index job given up', { memoryId: job.memoryId, attempts: job.attempts });
    if (gone || job.attempts > MAX_INDEX_ATTEMPTS) dropped.push(...finishIndexJobStatements(job, claimant));
    else live.push({ job, row });
  }
  if (dropped.length > 0) await tenant.database.transaction(dropped);
  if (live.length === 0) return empty;

  const failures = await embedWrittenMemories(
    target,
    live.map((entry) => entry.row),
  );
  const finish = new Map<string, InStatement[]>();
  for (const { job, row } of live) {
    const errorCode = failures.get(row.id);
    finish.set(
      row.id,
      errorCode === undefined ? finishIndexJobStatements(job, claimant) : retryOrFinish(target, job, errorCode),
    );
  }
  return { live, finish };
}

/**
 * The second step: writes the batch's graph edges (similar_to from the vectors just stored, same-subject
 * contradictions) with each job's finish in the graph's transaction. A memory whose embedding failed still gets its
 * graph (lexical similarity stands in).
 */
export async function linkBatch(target: IndexBatchTarget, { live, finish }: EmbeddedBatch): Promise<void> {
  if (live.length === 0) return;
  const outcomes = await extractGraphAfterWrites(
    target.logger,
    target.tenant,
    live.map((entry) => entry.row),
    target.now,
    (row) => finish.get(row.id) ?? [],
  );
  // A graph that could not be written left its job claimed: release it for a retry rather than wait out the lease.
  const unwritten = live.filter((_, index) => outcomes[index] === 'failed');
  if (unwritten.length > 0) {
    await target.tenant.database.transaction(
      unwritten.flatMap(({ job }) => retryOrFinish(target, job, 'GRAPH_RELATIONSHIP_SYNC_FAILED')),
    );
  }
}

/** Indexes claimed jobs: `embedBatch`, then `linkBatch`. */
export async function indexBatch(target: IndexBatchTarget, jobs: readonly IndexJob[]): Promise<void> {
  await linkBatch(target, await embedBatch(target, jobs));
}
