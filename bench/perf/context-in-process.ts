import type { EmbeddingModelDefinition } from '../../packages/server/src/embeddings/model-definition.js';
import {
  closeServices,
  createApp,
  createServices,
  loadConfig,
  type ServerConfig,
  type Services,
} from '../../packages/server/src/index.js';

const API_KEY = `mem_${'c3'.repeat(32)}`;

/** The real server (services and Hono app) in this process on a data dir, called with `app.request` (no port). */
export interface InProcessServer {
  services: Services;
  /** POSTs a body to a route of `/api/sdk/v1` with the bench key; throws unless it answers 2xx; returns the body. */
  post(route: string, body: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** How the in-process server is configured beyond its data dir (rate limits are always off, logs silent). */
export interface InProcessOptions {
  embeddingModel: string;
  /** The bench's own embedding models, registered beside the built-in ones. */
  embeddingModels?: readonly EmbeddingModelDefinition[];
  /** Environment variables, as a user would set them (e.g. `MEMORY_TENANT_QUOTA`). */
  environment?: Record<string, string>;
  overrides?: Partial<ServerConfig>;
}

/** Starts the server in-process on `dataDir` (its `workspace.db` is the default workspace). */
export async function startInProcessServer(dataDir: string, options: InProcessOptions): Promise<InProcessServer> {
  const config = loadConfig(options.environment ?? {}, {
    dataDir,
    bootstrapApiKey: API_KEY,
    logLevel: 'silent',
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
    embeddingModel: options.embeddingModel,
    ...options.overrides,
  });
  const services = await createServices(config, { embeddingModels: options.embeddingModels ?? [] });
  const app = createApp(services);
  return {
    services,
    post: async (route, body) => {
      const response = await app.request(`/api/sdk/v1/${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
      return response.json();
    },
    close: () => closeServices(services),
  };
}

/** What `timedCalls` measured: every call's latency (ms, sorted) and the seconds the run took. */
export interface TimedCalls {
  times: number[];
  seconds: number;
}

/** `clients` loops of `call`, each starting a new call until `seconds` have passed; every latency. */
export async function timedCalls(clients: number, seconds: number, call: () => Promise<unknown>): Promise<TimedCalls> {
  const times: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const begun = performance.now();
        await call();
        times.push(performance.now() - begun);
      }
    }),
  );
  return { times: times.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

/** The in-process server as the hybrid profiles use it. */
export interface ContextServer {
  /** One `context/get`; throws unless it answers 200 with the strategy asked for. */
  contextGet(query: string, strategy: 'lexical' | 'hybrid'): Promise<void>;
  /** Registers a model again: the server forgets its query vectors (a question is then embedded as if new). */
  reregister(model: EmbeddingModelDefinition): void;
  close(): Promise<void>;
}

/**
 * Starts the server in-process on `dataDir`, with the bench's own embedding models registered, and `embeddingModel`
 * as `MEMORY_EMBEDDING_MODEL`.
 */
export async function startContextServer(
  dataDir: string,
  embeddingModel: string,
  embeddingModels: readonly EmbeddingModelDefinition[],
): Promise<ContextServer> {
  const server = await startInProcessServer(dataDir, { embeddingModel, embeddingModels });
  return {
    contextGet: async (query, strategy) => {
      const envelope = (await server.post('context/get', { query, strategy })) as {
        data?: { trace?: { semanticStrategyApplied?: string } };
      };
      const applied = envelope.data?.trace?.semanticStrategyApplied;
      if (strategy === 'hybrid' && applied === 'lexical')
        throw new Error(`context/get ${strategy} answered with strategy ${applied}`);
    },
    reregister: (model) => server.services.embeddings.register(model),
    close: server.close,
  };
}
