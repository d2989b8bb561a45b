import type { MemoryType, OperationData, OperationInput, ResolvedScope } from '@memory-service/contract';
import type { MemoryFilters, MemoryStore } from '../store/memories.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Characters of content a dry run shows per memory. */
const PREVIEW_LENGTH = 120;

/**
 * The memories a bulk forget selects: all of the scope's, or those matching every filter given (any of the types,
 * any of the tags, created more than `olderThanDays` ago, content matching `pattern` with `*` and `?` wildcards,
 * exactly the project).
 */
export function bulkForgetFilters(input: OperationInput<'memories.bulkForget'>, now: Date): MemoryFilters {
  if (input.all) return {};
  const filters: MemoryFilters = {};
  const given = input.filters ?? {};
  if (given.types !== undefined) filters.types = given.types;
  if (given.tags !== undefined) filters.tagsAny = given.tags;
  if (given.olderThanDays !== undefined)
    filters.createdBefore = new Date(now.getTime() - given.olderThanDays * DAY_MS).toISOString();
  if (given.pattern !== undefined) filters.contentWildcard = given.pattern;
  if (given.projectId !== undefined) filters.projectIdExact = given.projectId;
  return filters;
}

/**
 * `memories/bulk-forget`: soft-deletes the selected memories the scope owns (never shared ones it only sees), or with
 * `dryRun` lists them with a preview of their content and changes nothing.
 */
export async function bulkForget(
  memories: MemoryStore,
  input: OperationInput<'memories.bulkForget'>,
  scope: ResolvedScope,
  now: Date,
): Promise<OperationData<'memories.bulkForget'>> {
  const rows = await memories.listOwned(scope, bulkForgetFilters(input, now));
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
  const count = await memories.softDeleteMany(ids, now);
  return { dryRun: false, count, ids, message: `${count} memories forgotten (soft-deleted; vacuum purges them)` };
}
