import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { readBackfillState, recordBackfillRun, saveBackfillPaused } from '../store/embedding-backfill.js';
import { type CoverageCounts, coverageCounts, nextPending } from '../store/embedding-coverage.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { embedMemories } from './embed-memories.js';
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

/** Backfill state is kept per user|project scope and model. */
function scopeKey(scope: ResolvedScope): string {
  return `${scope.userId ?? ''}|${scope.projectId ?? ''}`;
}

function stateOf(database: Database, scope: ResolvedScope, modelId: string) {
  return readBackfillState(database, scopeKey(scope), modelId);
}

/**
 * The backfill's status: counts are live (memories visible to the scope, those with a vector for the model, those
 * without, those whose last attempt failed); pause, last run and last error are the persisted state.
 */
export async function backfillStatus(
  tenant: TenantDatabase,
  scope: ResolvedScope,
  modelId: string,
  figures?: CoverageCounts,
): Promise<BackfillStatus> {
  const state = await stateOf(tenant.database, scope, modelId);
  figures ??= await coverageCounts(tenant, scope, modelId);
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
  await saveBackfillPaused(database, scopeKey(scope), modelId, paused, now);
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
  target: { tenant: TenantDatabase; registry: EmbeddingRegistry; now: Date },
  scope: ResolvedScope,
  modelId: string,
  batchSize: number,
): Promise<BackfillBatch> {
  const { tenant, now } = target;
  const { database } = tenant;
  const state = await stateOf(database, scope, modelId);
  if (Number(state?.paused ?? 0) === 1) return { processed: 0, failed: 0, paused: true };
  const cursor = Number(state?.cursor_seq ?? 0);
  let rows = await nextPending(tenant, scope, modelId, cursor, batchSize);
  if (rows.length === 0 && cursor > 0) rows = await nextPending(tenant, scope, modelId, 0, batchSize);
  const outcome = await embedMemories({ ...target, modelId, origin: 'backfill' }, rows);
  const lastSeq = rows.at(-1)?.seq ?? 0;
  const lastError = outcome.error === null ? null : `${outcome.error.code}: ${outcome.error.message}`;
  await recordBackfillRun(database, scopeKey(scope), modelId, {
    cursorSeq: lastSeq,
    embedded: outcome.embedded,
    failed: outcome.failed,
    lastError,
    now,
  });
  return { processed: outcome.embedded, failed: outcome.failed, paused: false };
}
