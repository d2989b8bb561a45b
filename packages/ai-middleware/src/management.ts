import {
  createMemoryClient,
  type EmbeddingsResource,
  type ManagementResource,
  type MemoryClientOptions,
} from '@memory-service/client';

type Credentials = { apiKey: string; adminToken?: undefined } | { adminToken: string; apiKey?: undefined };

/** Options of `createMemoryManagement`: the server and one credential (an API key of the owner, or the admin token). */
export type MemoryManagementOptions = Credentials &
  Pick<MemoryClientOptions, 'fetch' | 'timeoutMs' | 'maxRetries' | 'headers'> & {
    /** The server (`https://memory.example.com`). */
    baseUrl: string;
  };

/** Management operations of the memory service: keys, tenants, embeddings and observability. */
export interface MemoryManagement {
  /** API keys: status and inventory, create (shown once), revoke. */
  keys: ManagementResource['keys'];
  /** Tenant database mappings: list, create or update (`provision` or `attach`), disable. */
  tenants: ManagementResource['tenants'];
  embeddings: {
    /** Embedding models on offer and the resolved selection. */
    models: EmbeddingsResource['models'];
    /** Embedding usage for a month. */
    usage: ManagementResource['embeddings']['usage'];
    /** Backfill status, run one batch, pause, resume. */
    backfill: ManagementResource['embeddings']['backfill'];
  };
  observability: {
    /** Embedding queue, backfill, retrieval, cost, SLOs and alarms. */
    embeddings: ManagementResource['embeddings']['observability'];
    /** Memory lifecycle, compaction, consolidation and contradiction figures. */
    memory: ManagementResource['memory']['observability'];
  };
  /** Deterministic replay scoring of extraction, compaction retention and triggers. */
  evalReplay: ManagementResource['memory']['evalReplay'];
}

/**
 * Creates a typed management helper over the client's management methods.
 *
 * @example
 * ```ts
 * const management = createMemoryManagement({ baseUrl: 'http://127.0.0.1:8787', adminToken: process.env.MEMORY_ADMIN_TOKEN! });
 * const { key } = await management.keys.create({ expiresAt: new Date(Date.now() + 864e5).toISOString() });
 * ```
 */
export function createMemoryManagement(options: MemoryManagementOptions): MemoryManagement {
  if (options.apiKey === undefined && options.adminToken === undefined) {
    throw new TypeError('createMemoryManagement needs an apiKey or an adminToken');
  }
  const client = createMemoryClient({ ...options, transport: 'sdk_http' });
  const { keys, tenants, embeddings, memory } = client.management;
  return {
    keys,
    tenants,
    embeddings: { models: client.embeddings.models, usage: embeddings.usage, backfill: embeddings.backfill },
    observability: { embeddings: embeddings.observability, memory: memory.observability },
    evalReplay: memory.evalReplay,
  };
}
