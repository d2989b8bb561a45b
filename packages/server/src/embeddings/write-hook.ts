import type { Logger } from '../logger.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { embeddingText, embedMemories, textHash } from './embed-memories.js';
import type { EmbeddingRegistry } from './registry.js';

/** Where the indexer's embedding work is done and recorded. */
export interface WrittenMemoriesTarget {
  tenant: TenantDatabase;
  registry: EmbeddingRegistry;
  /** The model of memories that name none. */
  defaultModel: string;
  logger: Logger;
  now: Date;
}

/** Memories whose stored vector for the model was computed from their current text (nothing to embed again). */
async function currentlyEmbedded(
  tenant: TenantDatabase,
  modelId: string,
  rows: readonly MemoryRow[],
): Promise<Set<number>> {
  const table = await tenant.vectorTables.find(modelId);
  if (table === undefined || rows.length === 0) return new Set();
  const hashes = await tenant.vectorTables.textHashes(
    table,
    rows.map((row) => row.seq),
  );
  return new Set(rows.filter((row) => hashes.get(row.seq) === textHash(embeddingText(row))).map((row) => row.seq));
}

/**
 * The indexer's embedding step for memories written by `memories/add` and `memories/edit`: embeds them with their
 * selected model (stamped in `embedding_model`), one embedding call per model and project for a whole batch, and
 * skips those whose vector already matches their text (an edit of other fields, a batch retried after a crash).
 * A failure is logged (code only) and recorded as a failed job by `embedMemories`; it never throws. Returns the
 * error code of each memory left without a vector.
 */
export async function embedWrittenMemories(
  target: WrittenMemoriesTarget,
  rows: readonly MemoryRow[],
): Promise<Map<string, string>> {
  const failures = new Map<string, string>();
  const groups = new Map<string, MemoryRow[]>();
  for (const row of rows) {
    const modelId = row.embedding_model ?? target.defaultModel;
    groups.set(modelId, [...(groups.get(modelId) ?? []), row]);
  }
  for (const [modelId, group] of groups) {
    try {
      const current = await currentlyEmbedded(target.tenant, modelId, group);
      const outcome = await embedMemories(
        { ...target, modelId, origin: 'write' },
        group.filter((row) => !current.has(row.seq)),
      );
      for (const memoryId of outcome.failedIds) failures.set(memoryId, outcome.error?.code ?? 'EMBEDDING_FAILED');
    } catch {
      for (const row of group) failures.set(row.id, 'EMBEDDING_HOOK_FAILED');
    }
  }
  for (const [memoryId, errorCode] of failures) {
    const modelId = rows.find((row) => row.id === memoryId)?.embedding_model ?? target.defaultModel;
    target.logger.warn('memory not embedded', { memoryId, modelId, errorCode });
  }
  return failures;
}

/** The vacuum hook: drops vectors of memories vacuum purged. Never fails the vacuum: a failure is logged. */
export async function purgeVectorsAfterVacuum(
  tenant: TenantDatabase,
  logger: Logger,
  requestId: string,
): Promise<void> {
  try {
    await tenant.vectorTables.purgeOrphans();
  } catch {
    logger.warn('orphan vectors not purged', { requestId, errorCode: 'VECTOR_PURGE_FAILED' });
  }
}
