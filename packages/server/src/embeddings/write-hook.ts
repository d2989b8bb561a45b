import type { HandlerContext } from '../handlers/types.js';
import type { Services } from '../services.js';
import type { Database } from '../store/database.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { embeddingRegistryReady } from './default-registry.js';
import { embeddingText, embedMemories, textHash } from './embed-memories.js';
import { deleteVectors, findVectorTable, purgeOrphanVectors, storedTextHash } from './vector-store.js';

/** A memory a request just wrote, with what its derived work is recorded under. */
export interface WrittenMemory {
  row: MemoryRow;
  tenantId: string | null;
  requestId: string;
  now: Date;
}

async function hasCurrentVector(database: Database, modelId: string, seq: number, text: string): Promise<boolean> {
  const table = await findVectorTable(database, modelId);
  return table !== undefined && (await storedTextHash(database, table, seq)) === textHash(text);
}

function warnNotEmbedded(services: Services, written: WrittenMemory, modelId: string, errorCode: string): void {
  services.logger.warn('memory not embedded', {
    requestId: written.requestId,
    memoryId: written.row.id,
    modelId,
    errorCode,
  });
}

/**
 * The write hook of `memories/add` and `memories/edit`: embeds written memories with their selected model (stamped in
 * `embedding_model`) before the calls return, one embedding call per model, tenant and project for a whole group
 * commit. A failure never fails the write: it is logged (code only) and recorded as a failed job; the memory waits
 * for the backfill.
 */
export async function embedWrittenMemories(
  services: Services,
  database: Database,
  written: readonly WrittenMemory[],
): Promise<void> {
  const groups = new Map<string, WrittenMemory[]>();
  for (const entry of written) {
    const key = JSON.stringify([entry.row.embedding_model ?? services.config.embeddingModel, entry.tenantId]);
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  for (const [key, group] of groups) {
    const [modelId] = JSON.parse(key) as [string];
    const first = group[0] as WrittenMemory;
    try {
      const outcome = await embedMemories(
        {
          database,
          registry: await embeddingRegistryReady(),
          modelId,
          tenantId: first.tenantId,
          origin: 'write',
          now: first.now,
        },
        group.map((entry) => entry.row),
      );
      const failed = new Set(outcome.failedIds);
      for (const entry of group) {
        if (failed.has(entry.row.id))
          warnNotEmbedded(services, entry, modelId, outcome.error?.code ?? 'EMBEDDING_FAILED');
      }
    } catch {
      for (const entry of group) warnNotEmbedded(services, entry, modelId, 'EMBEDDING_HOOK_FAILED');
    }
  }
}

/**
 * The write hook of `memories/edit`: an edit that changes the embedded text first drops the memory's old vectors, so
 * no model keeps serving the previous wording; an edit that keeps it (and the vector) embeds nothing.
 */
export async function embedAfterEdit(context: HandlerContext, row: MemoryRow, previous: MemoryRow): Promise<void> {
  const modelId = row.embedding_model ?? context.services.config.embeddingModel;
  const written: WrittenMemory = {
    row,
    tenantId: context.scope.tenantId,
    requestId: context.requestId,
    now: context.now,
  };
  try {
    const { database } = await context.tenant();
    const text = embeddingText(row);
    if (embeddingText(previous) !== text) await deleteVectors(database, row.seq);
    else if (await hasCurrentVector(database, modelId, row.seq, text)) return;
    await embedWrittenMemories(context.services, database, [written]);
  } catch {
    warnNotEmbedded(context.services, written, modelId, 'EMBEDDING_HOOK_FAILED');
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
