import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Hono } from 'hono';
import { createApp } from '../src/app.js';
import { type BootstrapOptions, closeServices, createServices } from '../src/bootstrap.js';
import { loadConfig, type ServerConfig } from '../src/config.js';
import type { Services } from '../src/services.js';

/** A fixed, valid API key for tests. */
export const TEST_KEY = `mem_${'a1'.repeat(32)}`;
/** The embedding model test servers use: fast and deterministic (tests of the sentence encoder set theirs). */
export const TEST_EMBEDDING_MODEL = 'local/hash-384';
export const ADMIN_TOKEN = 'test-admin-token-0123456789';

/** An app over real libSQL files in a temp folder. */
export interface TestServer {
  app: Hono;
  services: Services;
  dataDir: string;
  /** Calls the API with the test key (or `options.key`); returns status, envelope and headers. */
  call(
    method: string,
    path: string,
    body?: unknown,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  /** POST shortcut that expects success and returns `data`. */
  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  /**
   * Waits until the background indexers of every open database have no due job: the vectors and graph edges of
   * every write so far are stored. Adds answer before indexing; tests that read vectors or edges call this first.
   */
  indexed(): Promise<void>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  body: {
    ok: boolean;
    data: Record<string, any> | null;
    error: {
      code: string;
      type: string;
      status: number;
      message: string;
      retryable: boolean;
      details?: Record<string, any>;
    } | null;
    meta: { version: string; endpoint: string; requestId: string; timestamp: string };
  };
  headers: Headers;
}

/**
 * Starts an in-process app (no port) on a fresh data dir. `options` adds embedding models of the test's own, or an
 * environment to read the configuration from (by default an empty one).
 */
export async function createTestServer(
  overrides: Partial<ServerConfig> = {},
  dataDir?: string,
  options: BootstrapOptions & { environment?: Record<string, string | undefined> } = {},
): Promise<TestServer> {
  const directory = dataDir ?? mkdtempSync(path.join(tmpdir(), 'memory-service-test-'));
  const { environment = {}, ...bootstrap } = options;
  const config = loadConfig(environment, {
    dataDir: directory,
    bootstrapApiKey: TEST_KEY,
    adminToken: ADMIN_TOKEN,
    logLevel: 'silent',
    // Fast and deterministic; tests that need the sentence encoder set it explicitly.
    embeddingModel: TEST_EMBEDDING_MODEL,
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
    ...overrides,
  });
  const services = await createServices(config, bootstrap);
  const app = createApp(services);
  const call: TestServer['call'] = async (method, route, body, options = {}) => {
    const key = options.key === undefined ? TEST_KEY : options.key;
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const url = route.startsWith('/api') || route.startsWith('/docs') ? route : `/api/sdk/v1${route}`;
    const response = await app.request(url, { method, headers, body: payload });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text), headers: response.headers };
  };
  return {
    app,
    services,
    dataDir: directory,
    call,
    post: async (route, body) => {
      const response = await call('POST', route, body ?? {});
      if (!response.body.ok) throw new Error(`${route} failed: ${JSON.stringify(response.body.error)}`);
      return response.body.data as never;
    },
    indexed: () => services.indexing.drain(),
    close: async () => {
      await closeServices(services);
      if (dataDir === undefined) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** An MCP client of a test server, served in-process by `app.request` (no port), with the test key or `key`. */
export async function connectMcp(server: TestServer, name: string, key: string = TEST_KEY): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://memory.test/api/mcp'), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      fetch: async (url, init) => server.app.request(String(url), init),
    }),
  );
  return client;
}
