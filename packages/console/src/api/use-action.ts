import type { MemoryClient } from '@memory-service/client';
import { useCallback, useRef, useState } from 'preact/hooks';
import { type ConsoleError, toConsoleError } from './console-error.js';
import { useClient } from './use-client.js';

/** A change the user asks for (edit, forget, create): run it, see it pending, see its error. */
export interface ActionState<Args extends unknown[], Result> {
  /** Runs the action; resolves to its result, or to undefined when it failed (the error is in `error`). */
  run: (...args: Args) => Promise<Result | undefined>;
  pending: boolean;
  error: ConsoleError | undefined;
  /** Clears the error (when the form changes, say). */
  reset: () => void;
}

/**
 * Wraps a write through the client for a button or a form: `pending` while it runs, the error as the contract words it.
 *
 * @example
 * ```tsx
 * const save = useAction((client, id: string, content: string) => client.memories.edit({ id, content }));
 * <button disabled={save.pending} onClick={() => save.run(memory.id, draft)}>Save</button>
 * ```
 */
export function useAction<Args extends unknown[], Result>(
  action: (client: MemoryClient, ...args: Args) => Promise<Result>,
): ActionState<Args, Result> {
  const client = useClient();
  const actionRef = useRef(action);
  actionRef.current = action;
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ConsoleError | undefined>(undefined);

  const run = useCallback(
    async (...args: Args) => {
      setPending(true);
      setError(undefined);
      try {
        return await actionRef.current(client, ...args);
      } catch (thrown) {
        setError(toConsoleError(thrown));
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [client],
  );
  const reset = useCallback(() => setError(undefined), []);
  return { run, pending, error, reset };
}
