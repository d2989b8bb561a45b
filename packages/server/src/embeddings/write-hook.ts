import type { HandlerContext } from '../handlers/types.js';
import type { Logger } from '../logger.js';
import type { Database } from '../store/database.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { embeddingText, embedMemories, textHash } from './embed-memories.js';
import type { EmbeddingRegistry } from './registry.js';
import { findVectorTable, purgeOrphanVectors } from './vector-store.js';

/** Where the indexer's embedding work is done and recorded. */
export interface WrittenMemoriesTarget {
  database: Database;
  registry: EmbeddingRegistry;
  /** The model of memories that name none. */
  defaultModel: string;
  tenantId: string | null;
  logger: Logger;
  now: Date;
}

/** Memories whose stored vector for the model was computed from their current text (nothing to embed again). */
async function currentlyEmbedded(
  database: Database,
  modelId: string,
  rows: readonly MemoryRow[],
): Promise<Set<number>> {
  const table = await findVectorTable(database, modelId);
  if (table === undefined || rows.length === 0) return new Set();
  const stored = await database.all<{ memory_seq: number; text_hash: string }>(
    `SELECT memory_seq, text_hash FROM ${table.tableName} WHERE memory_seq IN (${rows.map(() => '?').join(', ')})`,
    rows.map((row) => row.seq),
  );
  const hashes = new Map(stored.map((entry) => [Number(entry.memory_seq), entry.text_hash]));
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
      const current = await currentlyEmbedded(target.database, modelId, group);
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

/** The vacuum hook: drops vectors of memories vacuum purged. Never fails the vacuum. */
export async function purgeVectorsAfterVacuum(context: HandlerContext): Promise<void> {
  try {
    await purgeOrphanVectors((await context.tenant()).database);
  } catch {
    context.services.logger.warn('orphan vectors not purged', {
      requestId: context.requestId,
      errorCode: 'VECTOR_PURGE_FAILED',
    });
  }
}
