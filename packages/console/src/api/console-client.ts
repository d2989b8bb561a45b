import { createMemoryClient, type MemoryClient } from '@memory-service/client';
import type { ConsoleSession } from '../session/console-session.js';

/**
 * The client the console calls the API with: HTTP to the server that served the page, the session's credentials,
 * its scope merged into every call. One retry at most: a person is waiting and can press Retry.
 */
export function createConsoleClient(session: ConsoleSession, origin: string = location.origin): MemoryClient {
  return createMemoryClient({
    baseUrl: origin,
    transport: 'sdk_http',
    apiKey: session.apiKey ?? undefined,
    adminToken: session.adminToken ?? undefined,
    scope: session.scope,
    timeoutMs: 30_000,
    maxRetries: 1,
  });
}
