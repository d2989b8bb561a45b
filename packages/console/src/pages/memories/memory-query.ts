import type { ConflictPair, Memory, MemoryClient, RetrievedMemory } from '@memory-service/client';
import {
  DEFAULTS,
  LIMITS,
  MEMORY_LAYERS,
  MEMORY_TYPES,
  type MemoryLayer,
  type MemoryType,
} from '@memory-service/contract';
import type { SelectOption } from '../../components/fields.js';
import { parseList } from '../../components/format.js';

/** What the Memories page asks for: the API's filters plus the ones the page applies to what came back. */
export interface MemoryQuery {
  /** Non-empty: memories/search with `strategy`; empty: memories/list. */
  text: string;
  strategy: 'lexical' | 'hybrid';
  type: MemoryType | '';
  layer: MemoryLayer | '';
  /** Comma-separated; list sends them to the API, search filters its results (a memory with any of them). */
  tags: string;
  limit: number;
  /** Days; 0 for any. Applied in the page: the API has no updated filter. */
  updatedWithinDays: number;
  /** `created`: the API's order (newest first); `updated`: re-sorted in the page. */
  sort: 'created' | 'updated';
}

export const EMPTY_QUERY: MemoryQuery = {
  text: '',
  strategy: 'hybrid',
  type: '',
  layer: '',
  tags: '',
  limit: DEFAULTS.listLimit,
  updatedWithinDays: 0,
  sort: 'created',
};

export const TYPE_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'Any type' },
  ...MEMORY_TYPES.map((type) => ({ value: type, label: type })),
];
export const LAYER_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'Any layer' },
  ...MEMORY_LAYERS.map((layer) => ({ value: layer, label: layer.replace('_', ' ') })),
];
export const UPDATED_OPTIONS: readonly SelectOption[] = [
  { value: '0', label: 'Any time' },
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
];
export const SORT_OPTIONS: readonly SelectOption[] = [
  { value: 'created', label: 'Newest first' },
  { value: 'updated', label: 'Recently updated first' },
];

/** The largest limit the route allows: 100 for list, 50 for search. */
export function maxLimit(query: MemoryQuery): number {
  return query.text.trim() === '' ? LIMITS.listLimit.max : LIMITS.retrievalLimit.max;
}

/** A memory as the page lists it: search results also carry a score and where they came from. */
export type ListedMemory = Memory & Partial<Pick<RetrievedMemory, 'score' | 'source' | 'graph'>>;

/** What one load returned: the memories after the page's own filters, and the search trace, if it was a search. */
export interface MemoryResults {
  memories: ListedMemory[];
  /** How many the API returned before the page's filters. */
  fetched: number;
  /** Every memory the API returned, the page's filters aside (a conflict may name one that a filter hides). */
  fetchedMemories: ListedMemory[];
  /** The contradicts pairs among the listed memories (memories/list; a search answers none). */
  conflicts: ConflictPair[];
  trace: Awaited<ReturnType<MemoryClient['memories']['search']>>['trace'] | null;
  /** memories/list: the cursor of the page after these (null when none follows); a search has none. */
  nextCursor: string | null;
}

function applyPageFilters(memories: ListedMemory[], query: MemoryQuery, now: number): ListedMemory[] {
  const tags = parseList(query.tags);
  const since = query.updatedWithinDays > 0 ? now - query.updatedWithinDays * 24 * 3600 * 1000 : null;
  const kept = memories.filter(
    (memory) =>
      (since === null || Date.parse(memory.updatedAt) >= since) &&
      (tags.length === 0 || memory.tags.some((tag) => tags.includes(tag))),
  );
  if (query.sort === 'updated') kept.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
  return kept;
}

/**
 * Runs the query: memories/search when there is text, else memories/list (from `cursor`, a page's `nextCursor`, when
 * given); then the page's filters.
 */
export async function loadMemories(
  client: MemoryClient,
  query: MemoryQuery,
  signal: AbortSignal,
  cursor?: string,
): Promise<MemoryResults> {
  const type = query.type === '' ? undefined : query.type;
  const layer = query.layer === '' ? undefined : query.layer;
  const limit = Math.min(Math.max(1, Math.trunc(query.limit) || 1), maxLimit(query));
  const text = query.text.trim();
  if (text === '') {
    const tags = parseList(query.tags);
    const result = await client.memories.list(
      {
        type,
        layer,
        limit,
        ...(tags.length === 0 ? {} : { tags: tags.join(',') }),
        ...(cursor === undefined ? {} : { cursor }),
      },
      { signal },
    );
    return {
      memories: applyPageFilters(result.memories, query, Date.now()),
      fetched: result.count,
      fetchedMemories: result.memories,
      conflicts: result.conflicts ?? [],
      trace: null,
      nextCursor: result.nextCursor ?? null,
    };
  }
  const result = await client.memories.search(
    { query: text, strategy: query.strategy, type, layer, limit },
    { signal },
  );
  return {
    memories: applyPageFilters(result.memories, query, Date.now()),
    fetched: result.count,
    fetchedMemories: result.memories,
    conflicts: [],
    trace: result.trace,
    nextCursor: null,
  };
}

/** The results of the pages loaded so far followed by those of the next page, as one list. */
export function appendPage(loaded: MemoryResults, next: MemoryResults, query: MemoryQuery): MemoryResults {
  const seen = new Set(loaded.fetchedMemories.map((memory) => memory.id));
  const fetchedMemories = [...loaded.fetchedMemories, ...next.fetchedMemories.filter((memory) => !seen.has(memory.id))];
  const pairKey = (pair: ConflictPair) => [pair.memoryAId, pair.memoryBId].sort().join('|');
  const pairs = new Map([...loaded.conflicts, ...next.conflicts].map((pair) => [pairKey(pair), pair]));
  return {
    memories: applyPageFilters(fetchedMemories, query, Date.now()),
    fetched: fetchedMemories.length,
    fetchedMemories,
    conflicts: [...pairs.values()],
    trace: null,
    nextCursor: next.nextCursor,
  };
}
