import type { ConflictPair } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import type { ConsoleError } from '../../api/console-error.js';
import { useRequest } from '../../api/use-request.js';
import type { ListedMemory, MemoryResults } from './memory-query.js';

/** The memory a link names (`/console/memories?memory=<id>`), and what the page needs to show it. */
export interface LinkedMemory {
  /** The id in the URL, or null when there is none. */
  id: string | null;
  /** The memory, once found among the page's results or the newest 100. */
  memory: ListedMemory | null;
  /** Looked up, and not among the newest 100. */
  missing: boolean;
  /** The conflicts to show in its dialog: the page's, or those among the newest 100 when only they hold it. */
  conflicts: readonly ConflictPair[];
  /** The newest 100 when they were read (to name the other memory of a conflict). */
  listed: readonly ListedMemory[];
  error: ConsoleError | undefined;
  reload: () => void;
}

/**
 * Finds the memory a "superseded by" or "Conflicts with" link names: there is no read by id, so among the page's
 * results, else among the newest `LIMITS.listLimit.max` (memories/list), as the Graph page does.
 */
export function useLinkedMemory(id: string | null, results: MemoryResults | undefined): LinkedMemory {
  const newest = useRequest(
    (client, signal) =>
      id === null ? Promise.resolve(null) : client.memories.list({ limit: LIMITS.listLimit.max }, { signal }),
    [id],
  );
  const listed = newest.data?.memories ?? [];
  const inResults = id === null ? undefined : results?.fetchedMemories.find((memory) => memory.id === id);
  const memory = id === null ? null : (inResults ?? listed.find((entry) => entry.id === id) ?? null);
  return {
    id,
    memory,
    missing: id !== null && memory === null && newest.data != null && !newest.loading,
    conflicts: inResults === undefined ? (newest.data?.conflicts ?? []) : (results?.conflicts ?? []),
    listed,
    error: newest.error,
    reload: newest.reload,
  };
}
