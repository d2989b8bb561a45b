import type { HandlerContext } from '../pipeline/handler-types.js';
import { policyDefaultStrategy } from '../rollout/policy-autopilot.js';
import { loadRetrievalSettings, type RetrievalSettings } from '../store/rollout-policy.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';

/**
 * The scope's rollout mode and the tenant's policy default. With `applied` (the call names no strategy, so the
 * default decides it) the readiness autopilot may promote the policy first; a call naming its strategy only reads it.
 */
export async function policyDefault(
  tenant: TenantDatabase,
  context: HandlerContext,
  { applied }: { applied: boolean },
): Promise<RetrievalSettings> {
  const settings = await loadRetrievalSettings(tenant.database, context.scope.projectId);
  if (!applied) return settings;
  const { config, embeddings, logger } = context.services;
  const defaultStrategy = await policyDefaultStrategy(tenant, settings, {
    enabled: config.graphAutopilot,
    embeddings,
    defaultModelId: config.embeddingModel,
    logger,
    now: context.now,
  });
  return { ...settings, defaultStrategy };
}
