import { normalizeStrategyInput } from '../deprecation.js';
import type { RequestOptions } from '../request-options.js';
import type { CallInput, OperationCaller, QueryInput } from '../types.js';

/** `client.memories`: store, find, change and remove memories. */
export function createMemoriesResource(call: OperationCaller) {
  return {
    /** Stores a memory (201). */
    add: (input: CallInput<'memories.add'>, options?: RequestOptions) => call('memories.add', input, options),
    /** Searches memories by text; `baseline`/`hybrid_graph` are normalized with a one-time warning. */
    search: (input: CallInput<'memories.search'>, options?: RequestOptions) =>
      call('memories.search', normalizeStrategyInput(input), options),
    /** Lists memories, newest first, by type, layer or tags; pass a page's `nextCursor` as `cursor` for the next. */
    list: (input: CallInput<'memories.list'> = {}, options?: RequestOptions) => call('memories.list', input, options),
    /** Reads one memory by id; 404 `MEMORY_NOT_FOUND` when the scope does not see it (an extension beyond the contract). */
    get: (id: string, query: QueryInput<'memories.get', 'id'> = {}, options?: RequestOptions) =>
      call('memories.get', { ...query, id }, options),
    /** Reads a memory and its earlier versions, newest first (an extension beyond the contract). */
    history: (id: string, query: QueryInput<'memories.history', 'id'> = {}, options?: RequestOptions) =>
      call('memories.history', { ...query, id }, options),
    /** Changes a memory's content or fields. */
    edit: (input: CallInput<'memories.edit'>, options?: RequestOptions) => call('memories.edit', input, options),
    /** Soft-deletes a memory. */
    forget: (input: CallInput<'memories.forget'>, options?: RequestOptions) => call('memories.forget', input, options),
    /** Undoes a forget that vacuum has not purged (an extension beyond the contract). */
    restore: (input: CallInput<'memories.restore'>, options?: RequestOptions) =>
      call('memories.restore', input, options),
    /** Soft-deletes every memory matching the filters (or all); `dryRun` previews. */
    bulkForget: (input: CallInput<'memories.bulkForget'>, options?: RequestOptions) =>
      call('memories.bulkForget', input, options),
    /** Purges soft-deleted memories in scope for good. */
    vacuum: (input: CallInput<'memories.vacuum'> = {}, options?: RequestOptions) =>
      call('memories.vacuum', input, options),
    /** Merges duplicates and supersedes stale memories; `dryRun` changes nothing. */
    consolidate: (input: CallInput<'memories.consolidate'> = {}, options?: RequestOptions) =>
      call('memories.consolidate', input, options),
  };
}

/** The `client.memories` resource. */
export type MemoriesResource = ReturnType<typeof createMemoriesResource>;
