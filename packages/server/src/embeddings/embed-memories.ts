import { createHash } from 'node:crypto';
import type { InStatement } from '@libsql/client';
import { type JobOrigin, type JobOutcome, jobStatement, pruneJobsStatement } from '../store/embedding-jobs.js';
import { usageStatement } from '../store/embedding-usage.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { parseJson } from '../store/rows.js';
import { vectorStatements } from '../store/vector-tables.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { describeEmbeddingError, type EmbeddingFailure } from './embedding-errors.js';
import type { EmbeddingRegistry, EmbeddingResult } from './registry.js';

/** The text a memory is embedded from: its content, then its tags and category (curated labels add meaning). */
export function embeddingText(row: Pick<MemoryRow, 'content' | 'tags' | 'category'>): string {
  const tags = parseJson<string[]>(row.tags, []);
  return [row.content, tags.length > 0 ? tags.join(', ') : null, row.category].filter((part) => part).join('\n');
}

/** A short hash of an embedding text, stored beside the vector so unchanged text is not embedded again. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** What embedding a batch did. */
export interface EmbedOutcome {
  embedded: number;
  failed: number;
  /** The last failure, if any. */
  error: EmbeddingFailure | null;
  /** The memories left without a vector. */
  failedIds: string[];
}

/** Where embedding work is recorded and billed. */
export interface EmbedTarget {
  tenant: TenantDatabase;
  registry: EmbeddingRegistry;
  modelId: string;
  origin: JobOrigin;
  now: Date;
}

function groupByProject(rows: readonly MemoryRow[]): MemoryRow[][] {
  const groups = new Map<string, MemoryRow[]>();
  for (const row of rows) {
    const key = row.project_id ?? '';
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()];
}

/**
 * Embeds memories with one model and stores their vectors; meters usage per project (one request per project in
 * the batch) and records one job per memory, a call's vectors, usage and jobs in one transaction. Never throws for a
 * model or provider failure: it is counted, recorded with its code, and the memories stay without a vector for the
 * backfill to retry.
 */
export async function embedMemories(target: EmbedTarget, rows: readonly MemoryRow[]): Promise<EmbedOutcome> {
  const outcome: EmbedOutcome = { embedded: 0, failed: 0, error: null, failedIds: [] };
  const jobs: JobOutcome[] = [];
  const job = (row: MemoryRow, error: EmbeddingFailure | null): JobOutcome => ({
    memoryId: row.id,
    modelId: target.modelId,
    origin: target.origin,
    userId: row.user_id,
    projectId: row.project_id,
    error,
  });
  const fail = (group: readonly MemoryRow[], failure: EmbeddingFailure) => {
    for (const row of group) jobs.push(job(row, failure));
    outcome.failed += group.length;
    outcome.failedIds.push(...group.map((row) => row.id));
    outcome.error = failure;
  };
  // Usage of provider calls whose vectors could not be stored: the call was made (and billed) all the same.
  const unstoredUsage: InStatement[] = [];
  for (const group of groupByProject(rows)) {
    // A project's queries use the model its memories were last embedded with (by a write or the backfill), whether
    // or not this call succeeds: a query then says why it fell back (model unavailable, index empty).
    await target.tenant.scopeModels
      .note(group[0]?.project_id ?? null, target.modelId, target.now)
      .catch(() => undefined);
    const texts = group.map(embeddingText);
    let result: EmbeddingResult;
    try {
      result = await target.registry.embed(target.modelId, texts);
    } catch (error) {
      fail(group, describeEmbeddingError(error));
      continue;
    }
    const usage = usageStatement(
      {
        tenantId: target.tenant.tenantId,
        projectId: group[0]?.project_id ?? null,
        modelId: target.modelId,
        provider: result.model.provider,
        items: texts.length,
        tokens: result.tokens,
        costPerMillionTokensUsd: result.model.costPerMillionTokensUsd,
      },
      target.now,
    );
    try {
      const table = await target.tenant.vectorTables.ensure(target.modelId, result.model.dimensions, target.now);
      const entries = group.map((row, position) => ({
        memorySeq: row.seq,
        vector: result.embeddings[position] ?? new Float32Array(),
        textHash: textHash(texts[position] ?? ''),
      }));
      // The vectors, their usage and their jobs commit together: one transaction per provider call.
      await target.tenant.database.transaction([
        usage,
        ...vectorStatements(table, entries, target.now),
        ...group.map((row) => jobStatement(job(row, null), target.now)),
        pruneJobsStatement(target.now),
      ]);
      outcome.embedded += group.length;
    } catch {
      // The vectors were computed but could not be stored (the database's own error is not recorded: it may quote SQL).
      unstoredUsage.push(usage);
      fail(group, { code: 'EMBEDDING_STORE_FAILED', message: 'The vector could not be stored' });
    }
  }
  if (jobs.length > 0 || unstoredUsage.length > 0) {
    await target.tenant.database.transaction([
      ...unstoredUsage,
      ...jobs.map((entry) => jobStatement(entry, target.now)),
      pruneJobsStatement(target.now),
    ]);
  }
  return outcome;
}
