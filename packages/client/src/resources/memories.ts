import { normalizeStrategyInput } from '../deprecation.js';
import type { CallInput, OperationCaller } from '../types.js';

/** `client.memories`: store, find, change and remove memories. */
export function createMemoriesResource(call: OperationCaller) {
  return {
    /** Stores a memory (201). */
    add: (input: CallInput<'memories.add'>) => call('memories.add', input),
    /** Searches memories by text; `baseline`/`hybrid_graph` are normalized with a one-time warning. */
    search: (input: CallInput<'memories.search'>) => call('memories.search', normalizeStrategyInput(input)),
    /** Lists memories, newest first, by type, layer or tags. */
    list: (input: CallInput<'memories.list'> = {}) => call('memories.list', input),
    /** Changes a memory's content or fields. */
    edit: (input: CallInput<'memories.edit'>) => call('memories.edit', input),
    /** Soft-deletes a memory. */
    forget: (input: CallInput<'memories.forget'>) => call('memories.forget', input),
    /** Soft-deletes every memory matching the filters (or all); `dryRun` previews. */
    bulkForget: (input: CallInput<'memories.bulkForget'>) => call('memories.bulkForget', input),
    /** Purges soft-deleted memories in scope for good. */
    vacuum: (input: CallInput<'memories.vacuum'> = {}) => call('memories.vacuum', input),
    /** Merges duplicates and supersedes stale memories; `dryRun` changes nothing. */
    consolidate: (input: CallInput<'memories.consolidate'> = {}) => call('memories.consolidate', input),
  };
}

/** The `client.memories` resource. */
export type MemoriesResource = ReturnType<typeof createMemoriesResource>;
