import type { Strategy } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import type { Logger } from '../logger.js';
import { loadRetrievalSettings, promoteToHybrid, type RetrievalSettings } from '../store/rollout-policy.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { hybridReadiness } from './hybrid-readiness.js';

/** What the readiness autopilot needs from the server. */
export interface PolicyAutopilotOptions {
  /** MEMORY_GRAPH_AUTOPILOT: whether the server may promote the policy by itself. */
  enabled: boolean;
  embeddings: EmbeddingRegistry;
  /** MEMORY_EMBEDDING_MODEL: the model of a tenant that has embedded nothing yet. */
  defaultModelId: string;
  logger: Logger;
  now: Date;
}

/**
 * The policy's default strategy for a call that names none, promoting the tenant first when it is ready. The policy
 * stays the one source of the default (the contract's "policy default, lexical until the rollout policy promotes to
 * hybrid"): the server's autopilot promotes it, once, when the readiness gate passes (`hybridReadiness`: the embedding
 * model is available and the tenant's memories have their vectors), so every client of the API (context/get and
 * memories/search, over HTTP or MCP) gets hybrid without an operator step. It never acts on a policy an operator set,
 * nor when MEMORY_GRAPH_AUTOPILOT is off. A failed check or promotion is logged and leaves the call lexical.
 * A hybrid default still answers lexically, per call and said in the trace, whenever the model or a vector fails.
 */
export async function policyDefaultStrategy(
  tenant: TenantDatabase,
  settings: RetrievalSettings,
  options: PolicyAutopilotOptions,
): Promise<Strategy> {
  const { now } = options;
  if (settings.defaultStrategy === 'hybrid' || !options.enabled || settings.policyUpdatedBy !== null)
    return settings.defaultStrategy;
  if (!tenant.policyReadiness.due(now)) return settings.defaultStrategy;
  try {
    const readiness = await hybridReadiness(tenant, options);
    tenant.policyReadiness.checked(now, readiness.memories);
    if (!readiness.ready) return settings.defaultStrategy;
    if (await promoteToHybrid(tenant.database, 'promote_hybrid_ready', now)) {
      options.logger.info('retrieval policy promoted to hybrid', {
        tenantId: tenant.tenantId,
        embeddingModel: readiness.modelId,
        memories: readiness.memories,
        vectors: readiness.vectors,
      });
      return 'hybrid';
    }
    // Someone set the policy between the read and the promotion: theirs is the default.
    return (await loadRetrievalSettings(tenant.database, null)).defaultStrategy;
  } catch (error) {
    // The server refusing work (SERVER_BUSY, a passed deadline) is the request's answer, as in retrieval.
    if (error instanceof ApiError) throw error;
    options.logger.warn('retrieval policy readiness check failed', {
      tenantId: tenant.tenantId,
      error: error instanceof Error ? error.message : String(error),
    });
    return settings.defaultStrategy;
  }
}
