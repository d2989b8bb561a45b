import { normalizeStrategy, type ResolvedScope } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import { selectEditModel, selectEmbeddingModel } from '../embeddings/selection.js';
import { purgeVectorsAfterVacuum } from '../embeddings/write-hook.js';
import { conflictsAmong } from '../graph/conflicts.js';
import type { Handler } from '../pipeline/handler-types.js';
import { searchMemoriesFor } from '../retrieval/search.js';
import { pendingIndexJobs, TRACE_PENDING_CAP } from '../store/index-jobs.js';
import type { MemoryFilters, MemoryStore } from '../store/memories.js';
import { decodeMemoryListCursor, encodeMemoryListCursor } from '../store/memory-cursors.js';
import { toMemory } from '../store/memory-rows.js';
import { sharedReadOnly } from '../store/scope-filter.js';
import { addMemoryRow } from '../writes/add-memories.js';
import { bulkForget } from '../writes/bulk-forget.js';
import { editMemoryRow, patchFrom } from '../writes/edit-memory.js';
import { newMemory } from '../writes/new-memory.js';
import { policyDefault } from './policy-default.js';

function notFound(id: string): ApiError {
  return new ApiError('MEMORY_NOT_FOUND', `Memory '${id}' was not found`, { id });
}

/** A shared memory a user-scoped request tried to change (it may read it, not change it). */
function sharedRefused(id: string, scope: ResolvedScope, action: string): ApiError {
  return new ApiError(
    'MEMORY_SHARED_READ_ONLY',
    `Memory '${id}' is shared by every user (it has no userId): a request scoped to user '${scope.userId}' may read it but not ${action} it; the app changes shared memories with requests without a userId`,
    { id, userId: scope.userId },
  );
}

/** Why a memory the store would not change was refused: shared with other users if the scope sees it, else absent. */
async function refusal(memories: MemoryStore, id: string, scope: ResolvedScope, action: string): Promise<ApiError> {
  const row = await memories.findVisible(id, scope);
  return row !== undefined && sharedReadOnly(row, scope) ? sharedRefused(id, scope, action) : notFound(id);
}

/**
 * `memories/add`: stored with the selected embedding model, its type's default layer and its layer's expiry. Content
 * equal to a live memory of the same kind that the scope sees answers that memory, unchanged (the request's tags,
 * metadata and other fields are not applied to it), with the additive `deduplicated: true`, and the same status.
 */
export const addMemory: Handler<'memories.add'> = async (input, context) => {
  const selection = await selectEmbeddingModel(
    context.services,
    context.caller.ownerId,
    context.scope.projectId,
    input.embeddingModel,
  );
  const { row, deduplicated } = await addMemoryRow(await context.tenant(), {
    memory: newMemory(input, selection.modelId, context.now),
    scope: context.scope,
    now: context.now,
    requestId: context.requestId,
  });
  return {
    id: row.id,
    message: deduplicated ? 'Memory already stored: the existing memory is returned, unchanged' : 'Memory stored',
    memory: toMemory(row),
    embeddingModel: selection.modelId,
    embeddingModelSource: selection.source,
    ...(deduplicated ? { deduplicated: true } : {}),
  };
};

/**
 * `memories/search`: the strategy is the request's, else the tenant's policy default (as in context/get); its trace
 * adds `indexPending`, the scope's memories still waiting for vectors and graph edges.
 */
export const searchMemories: Handler<'memories.search'> = async (input, context) => {
  const tenant = await context.tenant();
  const requested = normalizeStrategy(input.strategy);
  const strategy = requested ?? (await policyDefault(tenant, context, { applied: true })).defaultStrategy;
  // An additive trace field, counted beside the search: the contract's trace lists what every server reports, this
  // server says a little more.
  const indexPending = pendingIndexJobs(tenant.database, context.scope, TRACE_PENDING_CAP);
  indexPending.catch(() => undefined);
  const found = await searchMemoriesFor(tenant, {
    query: input.query,
    scope: context.scope,
    limit: input.limit,
    strategy,
    embeddings: context.services.embeddings,
    ...(input.type === undefined ? {} : { type: input.type }),
    ...(input.layer === undefined ? {} : { layer: input.layer }),
  });
  return { ...found, trace: { ...found.trace, indexPending: await indexPending } };
};

function tagList(tags: string | readonly string[] | undefined): string[] | undefined {
  if (tags === undefined) return undefined;
  const list = typeof tags === 'string' ? tags.split(',') : [...tags];
  const cleaned = list.map((tag) => tag.trim()).filter((tag) => tag !== '');
  return cleaned.length > 0 ? cleaned : undefined;
}

/**
 * `memories/list`: newest first; `tags` (comma-separated) matches memories having any of them. A page ends with the
 * additive `nextCursor`, the sort key of its last memory: the next page starts strictly after it (keyset paging on
 * `created_at` and `seq`, which never change), so a walk returns each memory that exists for all of it exactly once.
 */
export const listMemories: Handler<'memories.list'> = async (input, context) => {
  const after = input.cursor === undefined ? undefined : decodeMemoryListCursor(input.cursor);
  if (after === null) {
    throw new ApiError('INVALID_REQUEST', 'cursor must be the nextCursor of a memories/list answer', {
      field: 'cursor',
    });
  }
  const tags = tagList(input.tags);
  const filters: MemoryFilters = {
    ...(input.type === undefined ? {} : { types: [input.type] }),
    ...(input.layer === undefined ? {} : { layer: input.layer }),
    ...(tags === undefined ? {} : { tagsAny: tags }),
  };
  const tenant = await context.tenant();
  // One row past the page says whether another page follows.
  const rows = await tenant.memories.list(context.scope, filters, input.limit + 1, new Date(), after);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > input.limit && last !== undefined
      ? encodeMemoryListCursor({ createdAt: last.created_at, seq: Number(last.seq) })
      : null;
  const memories = page.map(toMemory);
  // An additive field: the contradicts pairs among the listed memories, in one query, as context/get gives them.
  return { memories, count: memories.length, nextCursor, conflicts: await conflictsAmong(tenant.database, memories) };
};

/** `memories/edit`. */
export const editMemory: Handler<'memories.edit'> = async (input, context) => {
  const tenant = await context.tenant();
  const existing = await tenant.memories.findVisible(input.id, context.scope);
  if (existing === undefined) throw notFound(input.id);
  if (sharedReadOnly(existing, context.scope)) throw sharedRefused(input.id, context.scope, 'edit');
  const selection = await selectEditModel(
    context.services,
    context.caller.ownerId,
    existing.project_id,
    input.embeddingModel,
    existing.embedding_model,
  );
  const updated = await editMemoryRow(tenant, {
    existing,
    patch: patchFrom(input, selection.modelId, context.now),
    scope: context.scope,
    now: context.now,
  });
  if (updated === undefined) throw notFound(input.id);
  return {
    id: updated.id,
    updated: true,
    message: 'Memory updated',
    embeddingModel: selection.modelId,
    embeddingModelSource: selection.source,
  };
};

/** `memories/forget`: soft delete of a memory the scope owns (a user-scoped request never forgets a shared one). */
export const forgetMemory: Handler<'memories.forget'> = async (input, context) => {
  const { memories } = await context.tenant();
  const deleted = await memories.softDelete(input.id, context.scope, context.now);
  if (!deleted) throw await refusal(memories, input.id, context.scope, 'forget');
  return { id: input.id, deleted: true, message: 'Memory forgotten (soft-deleted; vacuum purges it)' };
};

/** `memories/restore` (an extension): undoes a forget that vacuum has not purged yet. */
export const restoreMemory: Handler<'memories.restore'> = async (input, context) => {
  const restored = await (await context.tenant()).memories.restore(input.id, context.scope, context.now);
  if (restored.outcome === 'not-found') throw notFound(input.id);
  if (restored.outcome === 'shared') throw sharedRefused(input.id, context.scope, 'restore');
  if (restored.outcome === 'not-deleted') {
    throw new ApiError('MEMORY_NOT_DELETED', `Memory '${input.id}' is not deleted; there is nothing to restore`, {
      id: input.id,
    });
  }
  return { id: input.id, restored: true, message: 'Memory restored', memory: toMemory(restored.row) };
};

/** `memories/bulk-forget`: filters or all, with a dry run; touches only memories the scope owns, counts shared ones. */
export const bulkForgetMemories: Handler<'memories.bulkForget'> = async (input, context) =>
  bulkForget((await context.tenant()).memories, input, context.scope, context.now);

/** `memories/vacuum`: purge soft-deleted memories the scope owns. */
export const vacuumMemories: Handler<'memories.vacuum'> = async (_input, context) => {
  const tenant = await context.tenant();
  const purged = await tenant.memories.purgeDeleted(context.scope, context.now);
  await purgeVectorsAfterVacuum(tenant, context.services.logger, context.requestId);
  return { purged, message: `${purged} soft-deleted memories purged` };
};
