import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMemoryClient, type MemoryClient, type MemoryClientOptions } from '@memory-service/client';
import { closeServices, createApp, createServices, loadConfig } from '@memory-service/server';

export const API_KEY = `mem_${'5a'.repeat(32)}`;
export const ADMIN_TOKEN = 'middleware-test-admin-token';
const BASE_URL = 'http://memory.test';

/** The reference server in-process (no port) over a fresh data dir, and a client that talks to it. */
export interface MemoryServer {
  client: MemoryClient;
  /** Options for a client of this server (add `apiKey` or `adminToken`). */
  clientOptions: Required<Pick<MemoryClientOptions, 'baseUrl' | 'fetch'>>;
  close(): Promise<void>;
}

/** Starts the server in-process; `fetch` goes straight to `app.fetch`. `overrides` change its configuration. */
export async function startMemoryServer(overrides: Parameters<typeof loadConfig>[1] = {}): Promise<MemoryServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ai-middleware-test-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      bootstrapApiKey: API_KEY,
      adminToken: ADMIN_TOKEN,
      logLevel: 'silent',
      rateLimitPerMinute: 0,
      ipRateLimitPerMinute: 0,
      ...overrides,
    },
  );
  const services = await createServices(config);
  const app = createApp(services);
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(app.fetch(new Request(input, init)));
  const clientOptions = { baseUrl: BASE_URL, fetch };
  return {
    client: createMemoryClient({ ...clientOptions, apiKey: API_KEY, maxRetries: 0 }),
    clientOptions,
    close: async () => {
      await closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A client whose server never answers: every call fails with a connection error, at once. */
export function unreachableClient(): MemoryClient {
  return createMemoryClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    maxRetries: 0,
    fetch: () => Promise.reject(new TypeError('fetch failed: connect ECONNREFUSED')),
  });
}

/**
 * A client of `server` whose every request goes through `intercept`, given the request's path and a way to send it
 * on to the server: to delay, time or replace answers.
 */
export function interceptedClient(
  server: MemoryServer,
  intercept: (path: string, forward: () => Promise<Response>) => Promise<Response>,
): MemoryClient {
  const forwardTo = server.clientOptions.fetch;
  return createMemoryClient({
    ...server.clientOptions,
    apiKey: API_KEY,
    maxRetries: 0,
    fetch: (input, init) => {
      const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
      return intercept(path, () => forwardTo(input, init));
    },
  });
}
