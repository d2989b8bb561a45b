import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeServices, createApp, createServices, loadConfig } from '../../packages/server/src/index.js';

const API_KEY = `mem_${'b7'.repeat(32)}`;

/** The real server (services + Hono app) in this process, over libSQL files in a temp folder; no port. */
export interface InProcessServer {
  /** Calls a route with the bench's key; returns `data`, or throws with the error code. */
  call<T>(method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown): Promise<T>;
  /** Like `call`, but returns the error object instead of throwing. */
  attempt<T>(
    method: 'GET' | 'POST' | 'PATCH',
    route: string,
    body?: unknown,
  ): Promise<{ data: T | null; error: ApiFailure | null }>;
  /** Options for a `@memory-service/client` of this server: its `fetch` goes straight to the app, no port. */
  clientOptions: {
    baseUrl: string;
    apiKey: string;
    fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  };
  embeddingModel: string;
  close(): Promise<void>;
}

/** An error envelope's error. */
export interface ApiFailure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Starts the server in-process. `embeddingModel` overrides MEMORY_EMBEDDING_MODEL. */
export async function startInProcessServer(options: { embeddingModel?: string }): Promise<InProcessServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-bench-retrieval-'));
  const config = loadConfig(process.env, {
    dataDir,
    bootstrapApiKey: API_KEY,
    logLevel: 'silent',
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
    ...(options.embeddingModel === undefined ? {} : { embeddingModel: options.embeddingModel }),
  });
  const services = await createServices(config);
  const app = createApp(services);
  const attempt: InProcessServer['attempt'] = async (method, route, body) => {
    const response = await app.request(`/api/sdk/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const envelope = (await response.json()) as { ok: boolean; data: unknown; error: ApiFailure | null };
    return envelope.ok ? { data: envelope.data as never, error: null } : { data: null, error: envelope.error };
  };
  return {
    attempt,
    call: async (method, route, body) => {
      const { data, error } = await attempt(method, route, body);
      if (error !== null) throw new Error(`${method} ${route} failed: ${error.code}`);
      return data as never;
    },
    clientOptions: {
      baseUrl: 'http://bench.test',
      apiKey: API_KEY,
      fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init))),
    },
    embeddingModel: config.embeddingModel,
    close: async () => {
      await closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
