import type { InStatement } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import { embeddingText } from '../embeddings/embed-memories.js';
import { listVectorTables } from '../embeddings/vector-store.js';
import { enqueueIndexJobStatement } from '../indexing/index-jobs.js';
import type { Services } from '../services.js';
import type { Database } from '../store/database.js';
import { MemoryStore } from '../store/memories.js';
import type { MemoryPatch, MemoryRow } from '../store/memory-rows.js';

/** A memory's row as a patch would leave it, in the fields its vector and graph edges are derived from. */
function patched(row: MemoryRow, patch: MemoryPatch) {
  return {
    content: patch.content ?? row.content,
    tags: patch.tags === undefined ? row.tags : JSON.stringify(patch.tags),
    category: patch.category === undefined ? row.category : patch.category,
    type: patch.type ?? row.type,
    paths: patch.paths === undefined ? row.paths : JSON.stringify(patch.paths),
    metadata: patch.metadata === undefined ? row.metadata : JSON.stringify(patch.metadata),
    embeddingModel: patch.embeddingModel === undefined ? row.embedding_model : patch.embeddingModel,
  };
}

/**
 * Applies a `memories/edit` patch. When it changes what the memory's vector or graph edges are derived from (its
 * embedded text, type, paths, metadata or model), the same transaction queues the memory for indexing again, and a
 * changed text also drops the memory's vectors of every model, so no query is answered from the old wording while
 * the new one waits for the indexer. Resolves with the updated row (undefined when the memory is gone).
 */
export async function editMemoryRow(
  services: Services,
  database: Database,
  edit: { existing: MemoryRow; patch: MemoryPatch; scope: ResolvedScope; now: Date },
): Promise<MemoryRow | undefined> {
  const { existing, patch, now } = edit;
  const after = patched(existing, patch);
  const before = patched(existing, {});
  const textChanged = embeddingText(after) !== embeddingText(before);
  const reindex =
    textChanged ||
    after.type !== before.type ||
    after.paths !== before.paths ||
    after.metadata !== before.metadata ||
    after.embeddingModel !== before.embeddingModel;
  const statements: InStatement[] = [];
  if (textChanged) {
    for (const table of await listVectorTables(database))
      statements.push({ sql: `DELETE FROM ${table.tableName} WHERE memory_seq = ?`, args: [existing.seq] });
  }
  if (reindex) statements.push(enqueueIndexJobStatement(existing.id, 'edit', now));
  const updated = await new MemoryStore(database).update(existing.id, patch, edit.scope, now, statements);
  if (reindex) services.indexing.wake(database);
  return updated;
}
