import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { embedMemories } from './embed-memories.js';
import { type CoverageFigures, coverage, nextPending } from './pending-memories.js';
import type { EmbeddingRegistry } from './registry.js';

/** Backfill status as the contract reports it. */
export interface BackfillStatus {
  modelId: string;
  state: 'idle' | 'running' | 'paused' | 'completed';
  paused: boolean;
  total: number;
  embedded: number;
  remaining: number;
  failed: number;
  lastRunAt: string | null;
  lastError: string | null;
  updatedAt: string | null;
}

interface BackfillRow {
  paused: number;
  cursor_seq: number;
  last_run_at: string | null;
  last_error: string | null;
  updated_at: string;
}

/** Backfill state is kept per user|project scope and model. */
function scopeKey(scope: ResolvedScope): string {
  return `${scope.userId ?? ''}|${scope.projectId ?? ''}`;
}

async function stateOf(database: Database, scope: ResolvedScope, modelId: string): Promise<BackfillRow | undefined> {
  return database.get<BackfillRow>(
    'SELECT paused, cursor_seq, last_run_at, last_error, updated_at FROM embedding_backfill WHERE scope_key = ? AND model_id = ?',
    [scopeKey(scope), modelId],
  );
}

/**
 * The backfill's status: counts are live (memories visible to the scope, those with a vector for the model, those
 * without, those whose last attempt failed); pause, last run and last error are the persisted state.
 */
export async function backfillStatus(
  database: Database,
  scope: ResolvedScope,
  modelId: string,
  figures?: CoverageFigures,
): Promise<BackfillStatus> {
  const state = await stateOf(database, scope, modelId);
  figures ??= await coverage(database, scope, modelId);
  const paused = Number(state?.paused ?? 0) === 1;
  const lastRunAt = state?.last_run_at ?? null;
  return {
    modelId,
    state: paused ? 'paused' : figures.pending === 0 ? 'completed' : lastRunAt === null ? 'idle' : 'running',
    paused,
    total: figures.total,
    embedded: figures.total - figures.pending,
    remaining: figures.pending,
    failed: figures.failed,
    lastRunAt,
    lastError: state?.last_error ?? null,
    updatedAt: state?.updated_at ?? null,
  };
}

/** Pauses or resumes the backfill of a scope and model (persisted: a paused backfill's runs process nothing). */
export async function setBackfillPaused(
  database: Database,
  scope: ResolvedScope,
  modelId: string,
  paused: boolean,
  now: Date,
): Promise<void> {
  await database.run(
    `INSERT INTO embedding_backfill (scope_key, model_id, paused, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope_key, model_id) DO UPDATE SET paused = excluded.paused, updated_at = excluded.updated_at`,
    [scopeKey(scope), modelId, paused ? 1 : 0, now.toISOString()],
  );
}

/** What one run did. */
export interface BackfillBatch {
  processed: number;
  failed: number;
  paused: boolean;
}

/**
 * Runs one batch: the next `batchSize` memories without a vector after the persisted cursor (wrapping to the start
 * when the end is reached, so memories that failed are retried on the next pass instead of blocking this one), then
 * persists the cursor, the totals, the run time and the last error. A paused backfill processes nothing.
 */
export async function runBackfillBatch(
  target: { database: Database; registry: EmbeddingRegistry; tenantId: string | null; now: Date },
  scope: ResolvedScope,
  modelId: string,
  batchSize: number,
): Promise<BackfillBatch> {
  const { database, now } = target;
  const state = await stateOf(database, scope, modelId);
  if (Number(state?.paused ?? 0) === 1) return { processed: 0, failed: 0, paused: true };
  const cursor = Number(state?.cursor_seq ?? 0);
  let rows = await nextPending(database, scope, modelId, cursor, batchSize);
  if (rows.length === 0 && cursor > 0) rows = await nextPending(database, scope, modelId, 0, batchSize);
  const outcome = await embedMemories({ ...target, modelId, origin: 'backfill' }, rows);
  const lastSeq = rows.at(-1)?.seq ?? 0;
  const lastError = outcome.error === null ? null : `${outcome.error.code}: ${outcome.error.message}`;
  await database.run(
    `INSERT INTO embedding_backfill (scope_key, model_id, paused, cursor_seq, processed, failed, last_run_at, last_error,
       updated_at) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope_key, model_id) DO UPDATE SET cursor_seq = excluded.cursor_seq,
       processed = processed + excluded.processed, failed = failed + excluded.failed,
       last_run_at = excluded.last_run_at, last_error = excluded.last_error, updated_at = excluded.updated_at`,
    [
      scopeKey(scope),
      modelId,
      lastSeq,
      outcome.embedded,
      outcome.failed,
      now.toISOString(),
      lastError,
      now.toISOString(),
    ],
  );
  return { processed: outcome.embedded, failed: outcome.failed, paused: false };
}
