import type { EmbeddingModelDefinition } from '../../packages/server/src/embeddings/model-definition.js';
import { closeServices, createApp, createServices, loadConfig } from '../../packages/server/src/index.js';

const API_KEY = `mem_${'c3'.repeat(32)}`;

/** The real server (services and Hono app) in this process on a data dir, called with `app.request` (no port). */
export interface ContextServer {
  /** One `context/get`; throws unless it answers 200 with the strategy asked for. */
  contextGet(query: string, strategy: 'lexical' | 'hybrid'): Promise<void>;
  /** Registers a model again: the server forgets its query vectors (a question is then embedded as if new). */
  reregister(model: EmbeddingModelDefinition): void;
  close(): Promise<void>;
}

/**
 * Starts the server in-process on `dataDir` (its `workspace.db` is the default workspace), rate limits off, with the
 * bench's own embedding models registered, and `embeddingModel` as `MEMORY_EMBEDDING_MODEL`.
 */
export async function startContextServer(
  dataDir: string,
  embeddingModel: string,
  embeddingModels: readonly EmbeddingModelDefinition[],
): Promise<ContextServer> {
  const config = loadConfig(
    {},
    {
      dataDir,
      bootstrapApiKey: API_KEY,
      logLevel: 'silent',
      rateLimitPerMinute: 0,
      ipRateLimitPerMinute: 0,
      embeddingModel,
    },
  );
  const services = await createServices(config, { embeddingModels });
  const app = createApp(services);
  return {
    contextGet: async (query, strategy) => {
      const response = await app.request('/api/sdk/v1/context/get', {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, strategy }),
      });
      const envelope = (await response.json()) as {
        ok: boolean;
        data?: { trace?: { semanticStrategyApplied?: string } };
      };
      const applied = envelope.data?.trace?.semanticStrategyApplied;
      if (!envelope.ok || (strategy === 'hybrid' && applied === 'lexical'))
        throw new Error(`context/get ${strategy} answered ${response.status}, strategy ${applied}`);
    },
    reregister: (model) => services.embeddings.register(model),
    close: () => closeServices(services),
  };
}
