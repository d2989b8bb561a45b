import {
  bulkForgetsAll,
  type MemoryType,
  type OperationData,
  type OperationInput,
  type ResolvedScope,
} from '@memory-service/contract';
import type { MemoryFilters, MemoryStore } from '../store/memories.js';
import { isRule } from './rule-memory.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Characters of content a dry run shows per memory. */
const PREVIEW_LENGTH = 120;

/**
 * The memories a bulk forget selects: all of the scope's, or those matching every filter given (any of the types,
 * any of the tags, created more than `olderThanDays` ago, content matching `pattern` with `*` and `?` wildcards,
 * exactly the project).
 */
export function bulkForgetFilters(input: OperationInput<'memories.bulkForget'>, now: Date): MemoryFilters {
  if (bulkForgetsAll(input)) return {};
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

/** What a bulk forget leaves out of its matches, beyond memories the scope does not own. */
export interface BulkForgetOptions {
  /** Leave rules (type or layer `rule`) alone and count them: MCP calls by a key without rule writes. */
  keepRules?: boolean;
}

/** What a bulk forget matched but left alone (additive fields of its answer). */
type Skipped = { sharedSkipped?: number; rulesSkipped?: number };

function skippedNote({ sharedSkipped = 0, rulesSkipped = 0 }: Skipped): string {
  const notes: string[] = [];
  if (sharedSkipped > 0) {
    notes.push(
      `${sharedSkipped} shared memories matched and were left alone (a user-scoped request never forgets them)`,
    );
  }
  if (rulesSkipped > 0)
    notes.push(`${rulesSkipped} rules matched and were left alone (this key may not write rules over MCP)`);
  return notes.map((note) => `; ${note}`).join('');
}

/**
 * `memories/bulk-forget`: soft-deletes the selected memories the scope owns (never shared ones it only sees: with a
 * userId, it counts those in `sharedSkipped`), or with `dryRun` lists them with a preview of their content and changes
 * nothing. With `keepRules`, rules are left alone and counted in `rulesSkipped`.
 */
export async function bulkForget(
  memories: MemoryStore,
  input: OperationInput<'memories.bulkForget'>,
  scope: ResolvedScope,
  now: Date,
  { keepRules = false }: BulkForgetOptions = {},
): Promise<OperationData<'memories.bulkForget'>> {
  const filters = bulkForgetFilters(input, now);
  const matched = await memories.listOwned(scope, filters);
  const rows = keepRules ? matched.filter((row) => !isRule(row)) : matched;
  const skipped: Skipped = {
    ...(scope.userId === null ? {} : { sharedSkipped: await memories.countShared(scope, filters) }),
    ...(keepRules ? { rulesSkipped: matched.length - rows.length } : {}),
  };
  if (input.dryRun) {
    return {
      dryRun: true,
      count: rows.length,
      memories: rows.map((row) => ({
        id: row.id,
        type: row.type as MemoryType,
        contentPreview: row.content.length > PREVIEW_LENGTH ? `${row.content.slice(0, PREVIEW_LENGTH)}…` : row.content,
      })),
      message: `${rows.length} memories would be forgotten${skippedNote(skipped)}`,
      ...skipped,
    };
  }
  const ids = rows.map((row) => row.id);
  const count = await memories.softDeleteMany(ids, now);
  return {
    dryRun: false,
    count,
    ids,
    message: `${count} memories forgotten (soft-deleted; vacuum purges them)${skippedNote(skipped)}`,
    ...skipped,
  };
}
