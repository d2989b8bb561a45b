import type { HandlerContext } from '../handlers/types.js';
import type { Database } from '../store/database.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { embeddingRegistryReady } from './default-registry.js';
import { embeddingText, embedMemories, textHash } from './embed-memories.js';
import { noteScopeModel } from './scope-model.js';
import { deleteVectors, findVectorTable, purgeOrphanVectors, storedTextHash } from './vector-store.js';

async function hasCurrentVector(database: Database, modelId: string, seq: number, text: string): Promise<boolean> {
  const table = await findVectorTable(database, modelId);
  return table !== undefined && (await storedTextHash(database, table, seq)) === textHash(text);
}

/**
 * The write hook of `memories/add` and `memories/edit`: embeds the memory with its selected model (stamped in
 * `embedding_model`) before the call returns, for local and remote models alike. A failure never fails the write: it
 * is logged (code only) and recorded as a failed job; the memory waits for the backfill. An edit that changes the
 * embedded text first drops the memory's old vectors, so no model keeps serving the previous wording.
 */
export async function embedAfterWrite(context: HandlerContext, row: MemoryRow, previous?: MemoryRow): Promise<void> {
  const modelId = row.embedding_model ?? context.services.config.embeddingModel;
  try {
    const { database } = await context.tenant();
    await noteScopeModel(database, row.project_id, modelId, context.now);
    if (previous !== undefined) {
      const text = embeddingText(row);
      if (embeddingText(previous) !== text) await deleteVectors(database, row.seq);
      else if (await hasCurrentVector(database, modelId, row.seq, text)) return;
    }
    const outcome = await embedMemories(
      {
        database,
        registry: await embeddingRegistryReady(),
        modelId,
        tenantId: context.scope.tenantId,
        origin: 'write',
        now: context.now,
      },
      [row],
    );
    if (outcome.error !== null) {
      context.services.logger.warn('memory not embedded', {
        requestId: context.requestId,
        memoryId: row.id,
        modelId,
        errorCode: outcome.error.code,
      });
    }
  } catch {
    context.services.logger.warn('memory not embedded', {
      requestId: context.requestId,
      memoryId: row.id,
      modelId,
      errorCode: 'EMBEDDING_HOOK_FAILED',
    });
  }
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
