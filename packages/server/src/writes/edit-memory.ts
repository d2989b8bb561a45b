import type { InStatement } from '@libsql/client';
import type { OperationInput, ResolvedScope } from '@memory-service/contract';
import { embeddingText } from '../embeddings/embed-memories.js';
import { enqueueIndexJobStatement } from '../store/index-jobs.js';
import type { MemoryPatch, MemoryRow } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { occurredAtOf } from './occurred-at.js';

/**
 * The patch a `memories/edit` applies: the fields the request gives, and the model selected for the memory; throws
 * the 400 of an `occurredAt` in the future.
 */
export function patchFrom(input: OperationInput<'memories.edit'>, embeddingModel: string, now: Date): MemoryPatch {
  const occurredAt = occurredAtOf(input.occurredAt, now);
  return {
    ...(input.content === undefined ? {} : { content: input.content }),
    ...(input.type === undefined ? {} : { type: input.type }),
    ...(input.layer === undefined ? {} : { layer: input.layer }),
    ...(input.tags === undefined ? {} : { tags: input.tags }),
    ...(input.paths === undefined ? {} : { paths: input.paths }),
    ...(input.category === undefined ? {} : { category: input.category }),
    ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
    ...(occurredAt === undefined ? {} : { occurredAt }),
    embeddingModel,
  };
}

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
  tenant: TenantDatabase,
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
  const statements: InStatement[] = textChanged ? await tenant.vectorTables.dropStatements(existing.seq) : [];
  if (reindex) statements.push(enqueueIndexJobStatement(existing.id, 'edit', now));
  const updated = await tenant.memories.update(existing.id, patch, edit.scope, now, statements);
  if (reindex) tenant.jobsQueued();
  return updated;
}
