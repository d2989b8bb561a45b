import { createMemoryClient, type MemoryClient, type MemoryClientOptions } from '@memory-service/client';

/** A memory client from `@memory-service/client`, or the options to make one (`{ baseUrl, apiKey }`). */
export type MemoryClientInput = MemoryClient | MemoryClientOptions;

/** Returns the given client, or creates one from options. */
export function resolveClient(client: MemoryClientInput): MemoryClient {
  return 'context' in client ? client : createMemoryClient(client);
}
