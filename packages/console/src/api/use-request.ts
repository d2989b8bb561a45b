import type { MemoryClient } from '@memory-service/client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ConsoleError, toConsoleError } from './console-error.js';
import { useClient } from './use-client.js';

/** What a page renders from: the last data, the last error, and whether a load is running. */
export interface RequestState<Data> {
  /** The last successful result; kept while a reload runs (so the page does not flash), dropped when the scope changes. */
  data: Data | undefined;
  /** The error of the last load, cleared when the next one starts. */
  error: ConsoleError | undefined;
  loading: boolean;
  /** Loads again (after an edit, or from a Retry button). */
  reload: () => void;
}

/**
 * Loads data through the client when the page mounts and whenever `dependencies` or the session change; a load
 * that a newer one replaced is aborted and ignored.
 *
 * @example
 * ```tsx
 * const memories = useRequest((client, signal) => client.memories.list({ limit }, { signal }), [limit]);
 * ```
 */
export function useRequest<Data>(
  load: (client: MemoryClient, signal: AbortSignal) => Promise<Data>,
  dependencies: readonly unknown[],
): RequestState<Data> {
  const client = useClient();
  const loadRef = useRef(load);
  loadRef.current = load;
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<Omit<RequestState<Data>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: true,
  });

  // Data of another scope or credential must not show under the new one; a reload keeps what it has.
  const clientOfData = useRef(client);
  // The caller's dependencies decide when to load again (with the client and Reload).
  useEffect(() => {
    const controller = new AbortController();
    const sameClient = clientOfData.current === client;
    clientOfData.current = client;
    setState((previous) => ({ data: sameClient ? previous.data : undefined, error: undefined, loading: true }));
    loadRef.current(client, controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setState((previous) => ({ ...previous, error: toConsoleError(error), loading: false }));
        }
      },
    );
    return () => controller.abort();
  }, [client, generation, ...dependencies]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}
