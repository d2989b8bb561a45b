import { type ConflictPair, NotFoundError } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import type { ConsoleError } from '../../api/console-error.js';
import { useRequest } from '../../api/use-request.js';
import type { ListedMemory, MemoryResults } from './memory-query.js';

/** The memory a link names (`/console/memories?memory=<id>`), and what the page needs to show it. */
export interface LinkedMemory {
  /** The id in the URL, or null when there is none. */
  id: string | null;
  /** The memory, once found among the page's results, else read by id (memories/{id}). */
  memory: ListedMemory | null;
  /** Looked up, and not found in this scope (404 from memories/{id}). */
  missing: boolean;
  /** The conflicts to show in its dialog: the page's, or those among the newest 100 when only they hold it. */
  conflicts: readonly ConflictPair[];
  /** The newest 100 when they were read (to name the other memory of a conflict). */
  listed: readonly ListedMemory[];
  error: ConsoleError | undefined;
  reload: () => void;
}

/**
 * Finds the memory a "superseded by", "Conflicts with" or history link names: among the page's results, else read by
 * id (memories/{id}, whatever its age); the newest `LIMITS.listLimit.max` (memories/list) give the conflicts to show
 * with it and the text of the other memory of each.
 */
export function useLinkedMemory(id: string | null, results: MemoryResults | undefined): LinkedMemory {
  const newest = useRequest(
    (client, signal) =>
      id === null ? Promise.resolve(null) : client.memories.list({ limit: LIMITS.listLimit.max }, { signal }),
    [id],
  );
  const read = useRequest(
    (client, signal) =>
      id === null
        ? Promise.resolve(null)
        : client.memories.get(id, {}, { signal }).then(
            (data) => data.memory,
            // Not in this scope (or gone): the page says so, as for a link to nothing.
            (error: unknown) => {
              if (NotFoundError.isInstance(error)) return null;
              throw error;
            },
          ),
    [id],
  );
  const listed = newest.data?.memories ?? [];
  const inResults = id === null ? undefined : results?.fetchedMemories.find((memory) => memory.id === id);
  const memory = id === null ? null : (inResults ?? listed.find((entry) => entry.id === id) ?? read.data ?? null);
  return {
    id,
    memory,
    missing: id !== null && memory === null && read.data === null && !read.loading,
    conflicts: inResults === undefined ? (newest.data?.conflicts ?? []) : (results?.conflicts ?? []),
    listed,
    error: read.error ?? newest.error,
    reload: () => {
      newest.reload();
      read.reload();
    },
  };
}
