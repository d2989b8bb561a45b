import { ApiError } from '../api-error.js';
import type { Handler, HandlerContext } from '../pipeline/handler-types.js';
import { decodeMemoryHistoryCursor, encodeMemoryHistoryCursor } from '../store/memory-cursors.js';
import { toMemory } from '../store/memory-rows.js';
import { memoryHistory } from '../store/memory-versions.js';

/**
 * The memory `id` as memories/list shows it to the request's scope, else 404 MEMORY_NOT_FOUND: one answer for a memory
 * that does not exist and one the scope may not see (another user's, project's or tenant's, forgotten, expired), so
 * the status says nothing about what others store. Expiry is judged by the wall clock, as memories/list judges it.
 */
async function readable(id: string, context: HandlerContext) {
  const tenant = await context.tenant();
  const row = await tenant.memories.findReadable(id, context.scope, new Date());
  if (row === undefined) throw new ApiError('MEMORY_NOT_FOUND', `Memory '${id}' was not found`, { id });
  return { tenant, row };
}

/** `GET /memories/{id}` (an extension): one memory the scope sees. */
export const getMemory: Handler<'memories.get'> = async (input, context) => {
  const { row } = await readable(input.id, context);
  return { id: row.id, memory: toMemory(row) };
};

/**
 * `GET /memories/{id}/history` (an extension): the memory and its earlier versions, newest first, a page at a time
 * (`cursor` is the `nextCursor` of the page before).
 */
export const memoryHistoryOf: Handler<'memories.history'> = async (input, context) => {
  const after = input.cursor === undefined ? undefined : decodeMemoryHistoryCursor(input.cursor);
  if (after === null) {
    throw new ApiError('INVALID_REQUEST', 'cursor must be the nextCursor of a memories/{id}/history answer', {
      field: 'cursor',
    });
  }
  const { tenant, row } = await readable(input.id, context);
  const page = await memoryHistory(tenant.database, row.id, context.scope, input.limit, after);
  return {
    id: row.id,
    memory: toMemory(row),
    versions: page.versions,
    count: page.versions.length,
    nextCursor: page.next === null ? null : encodeMemoryHistoryCursor(page.next),
  };
};
