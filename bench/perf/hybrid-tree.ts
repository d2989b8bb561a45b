import { SENTENCE_ENCODER_MODEL_ID } from '../../packages/server/src/embedding-models/default-model.js';
import { createBuiltInRegistry } from '../../packages/server/src/embeddings/default-registry.js';
import { createHashEmbeddingModel } from '../../packages/server/src/embeddings/hash-embedding.js';
import type { EmbeddingModelDefinition } from '../../packages/server/src/embeddings/model-definition.js';
import type { EmbeddingRegistry } from '../../packages/server/src/embeddings/registry.js';
import { createSentenceEncoderModel } from '../../packages/server/src/embeddings/sentence-encoder.js';
import { type RetrievalRequest, retrieve } from '../../packages/server/src/retrieval/retrieve.js';
import { Database } from '../../packages/server/src/store/database.js';
import { TenantDatabase } from '../../packages/server/src/tenancy/tenant-database.js';
import { startContextServer } from './context-in-process.js';
import { hashWithEncoderCost } from './encoder-cost-model.js';

/** The reads `hybrid-ab.ts` times, with this checkout's server code, on a data dir holding `workspace.db`. */
export interface HybridTree {
  retrieve(query: string, strategy: 'lexical' | 'hybrid'): Promise<unknown>;
  contextGet(query: string, strategy: 'lexical' | 'hybrid'): Promise<void>;
  close(): Promise<void>;
}

/**
 * `retrieve()` as `context/get` asks it for its default limit of 5 (4 candidates per result, at least 20; rules are
 * read apart), on the workspace's shared scope.
 */
export function contextRetrieval(
  query: string,
  strategy: 'lexical' | 'hybrid',
  modelId: string,
  embeddings: EmbeddingRegistry,
): RetrievalRequest {
  return {
    query,
    scope: { tenantId: null, userId: null, projectId: null },
    limit: 20,
    strategy,
    excludeLayer: 'rule',
    recencyFallback: true,
    embeddingModel: modelId,
    embeddings,
  };
}

/** The query's model as a bench registers it: a built-in, or `hashWithEncoderCost`. */
export function queryModelDefinition(modelId: string, encoderCost: boolean): EmbeddingModelDefinition {
  const dimensions = /^local\/hash-(\d+)$/.exec(modelId)?.[1];
  if (encoderCost) {
    if (dimensions === undefined) throw new Error('the encoder cost needs a local/hash-<n> model');
    return hashWithEncoderCost(Number(dimensions));
  }
  const descriptor = createBuiltInRegistry().describe(modelId);
  if (descriptor === undefined) throw new Error(`${modelId} is not a built-in model`);
  const model =
    modelId === SENTENCE_ENCODER_MODEL_ID
      ? createSentenceEncoderModel()
      : createHashEmbeddingModel(descriptor.dimensions);
  return { ...descriptor, model };
}

/**
 * A workspace database file opened as the server opens a tenant: with the planner's statistics taken (plans differ
 * without them: a bench that skipped them once measured a plan the server never runs).
 */
export async function openBenchTenant(file: string): Promise<{ database: Database; tenant: TenantDatabase }> {
  const database = await Database.open({ url: `file:${file}` });
  await database.refreshStatisticsOnOpen('memories');
  return { database, tenant: new TenantDatabase('bench', null, database) };
}

/**
 * Opens this checkout's server code on `dataDir`: `retrieve()` on its own tenant handle and `context/get` through an
 * in-process server. Every hybrid call is of a question new to the server (a fresh registry for `retrieve()`, the model
 * registered again for `context/get`), so each pays for its query embedding.
 */
export async function openHybridTree(dataDir: string, modelId: string, encoderCost: boolean): Promise<HybridTree> {
  const queryModel = queryModelDefinition(modelId, encoderCost);
  const { database, tenant } = await openBenchTenant(`${dataDir}/workspace.db`);
  const context = await startContextServer(dataDir, modelId, [queryModel]);
  const registry = () => {
    const made = createBuiltInRegistry();
    made.register(queryModel);
    return made;
  };
  return {
    retrieve: (query, strategy) => retrieve(tenant, contextRetrieval(query, strategy, modelId, registry())),
    contextGet: async (query, strategy) => {
      context.reregister(queryModel);
      await context.contextGet(query, strategy);
    },
    close: async () => {
      await context.close();
      await database.close();
    },
  };
}
