import {
  type BulkForgetInputSchema,
  DEFAULTS,
  type MemoryLayer,
  type MemoryType,
  normalizeStrategy,
} from '@memory-service/contract';
import type * as z from 'zod';
import { ApiError } from '../api-error.js';
import { selectEmbeddingModel } from '../embeddings/selection.js';
import { purgeVectorsAfterVacuum } from '../embeddings/write-hook.js';
import { pendingIndexJobs, TRACE_PENDING_CAP } from '../indexing/index-jobs.js';
import { escapeLike } from '../retrieval/fts-query.js';
import { searchMemoriesFor } from '../retrieval/search.js';
import { type MemoryFilters, MemoryStore } from '../store/memories.js';
import { toMemory } from '../store/memory-rows.js';
import { addMemoryRow } from '../writes/add-memories.js';
import { editMemoryRow } from '../writes/edit-memory.js';
import type { Handler, HandlerContext } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

async function store(context: HandlerContext): Promise<MemoryStore> {
  return new MemoryStore((await context.tenant()).database);
}

/** Layer default (DESIGN 4): rule for type rule, else long_term. */
export function defaultLayer(type: MemoryType): MemoryLayer {
  return type === 'rule' ? 'rule' : 'long_term';
}

/** Working memories expire after the TTL (DESIGN 4); others never do. */
function expiryFor(layer: MemoryLayer, now: Date): string | null {
  return layer === 'working'
    ? new Date(now.getTime() + DEFAULTS.workingMemoryTtlHours * 3_600_000).toISOString()
    : null;
}

/** `memories/add`. */
export const addMemory: Handler<'memories.add'> = async (input, context) => {
  const selection = await selectEmbeddingModel(
    context.services,
    context.caller.ownerId,
    context.scope.projectId,
    input.embeddingModel,
  );
  const type = input.type ?? 'note';
  const layer = input.layer ?? defaultLayer(type);
  const row = await addMemoryRow(context.services, (await context.tenant()).database, {
    memory: {
      content: input.content,
      type,
      layer,
      tags: input.tags ?? [],
      paths: input.paths ?? [],
      category: input.category ?? null,
      metadata: input.metadata ?? {},
      embeddingModel: selection.modelId,
      expiresAt: expiryFor(layer, context.now),
    },
    scope: context.scope,
    now: context.now,
    requestId: context.requestId,
  });
  return {
    id: row.id,
    message: 'Memory stored',
    memory: toMemory(row),
    embeddingModel: selection.modelId,
    embeddingModelSource: selection.source,
  };
};

/** `memories/search`; its trace adds `indexPending`, the scope's memories still waiting for vectors and graph edges. */
export const searchMemories: Handler<'memories.search'> = async (input, context) => {
  const database = (await context.tenant()).database;
  const requested = normalizeStrategy(input.strategy) ?? 'lexical';
  const found = await searchMemoriesFor(database, {
    query: input.query,
    scope: context.scope,
    limit: input.limit,
    strategy: requested,
    ...(input.type === undefined ? {} : { type: input.type }),
    ...(input.layer === undefined ? {} : { layer: input.layer }),
  });
  // An additive trace field: the contract's trace lists what every server reports, this server says a little more.
  const trace = { ...found.trace, indexPending: await pendingIndexJobs(database, context.scope, TRACE_PENDING_CAP) };
  return { ...found, trace };
};

function tagList(tags: string | readonly string[] | undefined): string[] | undefined {
  if (tags === undefined) return undefined;
  const list = typeof tags === 'string' ? tags.split(',') : [...tags];
  const cleaned = list.map((tag) => tag.trim()).filter((tag) => tag !== '');
  return cleaned.length > 0 ? cleaned : undefined;
}

/** `memories/list`: newest first; `tags` (comma-separated) matches memories having any of them. */
export const listMemories: Handler<'memories.list'> = async (input, context) => {
  const filters: MemoryFilters = {};
  if (input.type !== undefined) filters.types = [input.type];
  if (input.layer !== undefined) filters.layer = input.layer;
  const tags = tagList(input.tags);
  if (tags !== undefined) filters.tagsAny = tags;
  const rows = await (await store(context)).list(context.scope, filters, input.limit);
  const memories = rows.map(toMemory);
  return { memories, count: memories.length };
};

/** `memories/edit`. */
export const editMemory: Handler<'memories.edit'> = async (input, context) => {
  const memories = await store(context);
  const existing = await memories.findVisible(input.id, context.scope);
  if (existing === undefined)
    throw new ApiError('MEMORY_NOT_FOUND', `Memory '${input.id}' was not found`, { id: input.id });
  const selection = await selectEmbeddingModel(
    context.services,
    context.caller.ownerId,
    existing.project_id,
    input.embeddingModel ?? existing.embedding_model ?? undefined,
  ).catch((error: unknown) => {
    // A stored model no longer allowed falls back to the default selection; a requested one is an error.
    if (input.embeddingModel !== undefined) throw error;
    return selectEmbeddingModel(context.services, context.caller.ownerId, existing.project_id, undefined);
  });
  const updated = await editMemoryRow(context.services, memories.database, {
    existing,
    patch: {
      ...(input.content === undefined ? {} : { content: input.content }),
      ...(input.type === undefined ? {} : { type: input.type }),
      ...(input.layer === undefined ? {} : { layer: input.layer }),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
      ...(input.paths === undefined ? {} : { paths: input.paths }),
      ...(input.category === undefined ? {} : { category: input.category }),
      ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      embeddingModel: selection.modelId,
    },
    scope: context.scope,
    now: context.now,
  });
  if (updated === undefined)
    throw new ApiError('MEMORY_NOT_FOUND', `Memory '${input.id}' was not found`, { id: input.id });
  const source = input.embeddingModel !== undefined ? 'request' : selection.source;
  return {
    id: updated.id,
    updated: true,
    message: 'Memory updated',
    embeddingModel: selection.modelId,
    embeddingModelSource: source,
  };
};

/** `memories/forget`: soft delete. */
export const forgetMemory: Handler<'memories.forget'> = async (input, context) => {
  const deleted = await (await store(context)).softDelete(input.id, context.scope, context.now);
  if (!deleted) throw new ApiError('MEMORY_NOT_FOUND', `Memory '${input.id}' was not found`, { id: input.id });
  return { id: input.id, deleted: true, message: 'Memory forgotten (soft-deleted; vacuum purges it)' };
};

/** `*` and `?` wildcards (whole content, case-insensitive) as a LIKE pattern. */
export function wildcardToLike(pattern: string): string {
  return [...pattern]
    .map((character) => (character === '*' ? '%' : character === '?' ? '_' : escapeLike(character)))
    .join('');
}

function bulkFilters(input: z.output<typeof BulkForgetInputSchema>, now: Date): MemoryFilters {
  if (input.all) return {};
  const filters: MemoryFilters = {};
  const given = input.filters ?? {};
  if (given.types !== undefined) filters.types = given.types;
  if (given.tags !== undefined) filters.tagsAny = given.tags;
  if (given.olderThanDays !== undefined)
    filters.createdBefore = new Date(now.getTime() - given.olderThanDays * DAY_MS).toISOString();
  if (given.pattern !== undefined) filters.contentLike = wildcardToLike(given.pattern);
  if (given.projectId !== undefined) filters.projectIdExact = given.projectId;
  return filters;
}

const PREVIEW_LENGTH = 120;

/** `memories/bulk-forget`: filters or all, with a dry run; touches only memories the scope owns. */
export const bulkForgetMemories: Handler<'memories.bulkForget'> = async (input, context) => {
  const memories = await store(context);
  const rows = await memories.listOwned(context.scope, bulkFilters(input, context.now));
  if (input.dryRun) {
    return {
      dryRun: true,
      count: rows.length,
      memories: rows.map((row) => ({
        id: row.id,
        type: row.type as MemoryType,
        contentPreview: row.content.length > PREVIEW_LENGTH ? `${row.content.slice(0, PREVIEW_LENGTH)}…` : row.content,
      })),
      message: `${rows.length} memories would be forgotten`,
    };
  }
  const ids = rows.map((row) => row.id);
  const count = await memories.softDeleteMany(ids, context.now);
  return { dryRun: false, count, ids, message: `${count} memories forgotten (soft-deleted; vacuum purges them)` };
};

/** `memories/vacuum`: purge soft-deleted memories visible to the scope. */
export const vacuumMemories: Handler<'memories.vacuum'> = async (_input, context) => {
  const purged = await (await store(context)).purgeDeleted(context.scope, context.now);
  await purgeVectorsAfterVacuum(context);
  return { purged, message: `${purged} soft-deleted memories purged` };
};
