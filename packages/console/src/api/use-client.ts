import type { MemoryClient } from '@memory-service/client';
import { useMemo } from 'preact/hooks';
import { useSession } from '../session/session-context.js';
import { createConsoleClient } from './console-client.js';

/**
 * The `@memory-service/client` of the signed-in session; a new one whenever the credentials or the scope change, so
 * `useRequest` loads again. Only on signed-in pages (the shell renders them only then).
 *
 * @example
 * ```tsx
 * const client = useClient();
 * await client.memories.add({ content: 'Deploys go out on Tuesdays' });
 * ```
 */
export function useClient(): MemoryClient {
  const { session } = useSession();
  if (session === null) throw new Error('useClient is used while signed out');
  return useMemo(() => createConsoleClient(session), [session]);
}
