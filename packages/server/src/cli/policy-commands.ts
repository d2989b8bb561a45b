import type { Strategy } from '@memory-service/contract';
import { hybridReadiness } from '../rollout/hybrid-readiness.js';
import type { Services } from '../services.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import { readPolicy, setByOperator, setPolicyStrategy } from '../store/rollout-policy.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { CliFailure, type CliIo, EXIT_CODES } from './cli-io.js';
import { requireWorkspace, withServices } from './keys-commands.js';

/** Whose retrieval policy a command reads or sets: a tenant of a workspace, or the workspace's own database. */
export interface PolicyTarget {
  tenantId: string | undefined;
  workspaceId: string | undefined;
}

/** What `policy set` takes: a strategy the operator fixes, or `auto` (the autopilot decides again). */
export type PolicyChoice = Strategy | 'auto';

/** `updatedBy` of a policy set with this command. */
const CLI_ACTOR = 'cli';

function describeTarget(target: PolicyTarget): string {
  const workspace = target.workspaceId === undefined ? '' : ` of workspace ${target.workspaceId}`;
  return target.tenantId === undefined ? `the workspace database${workspace}` : `tenant ${target.tenantId}${workspace}`;
}

/** Opens the target's database; an unknown tenant is an error (this command never creates one). */
async function openTarget(services: Services, target: PolicyTarget, now: Date): Promise<TenantDatabase> {
  const ownerId = target.workspaceId ?? DEFAULT_OWNER_ID;
  if (target.workspaceId !== undefined) await requireWorkspace(services, target.workspaceId);
  if (target.tenantId !== undefined && (await services.registry.find(ownerId, target.tenantId)) === undefined)
    throw new CliFailure(`no tenant '${target.tenantId}' in this workspace (a tenant is created by its first write)`);
  return services.resolver.resolve(ownerId, target.tenantId ?? null, now, { createTenant: false });
}

/** `memory-service policy show`: the default strategy, who set it, and whether the autopilot would promote it. */
export async function showPolicyCommand(io: CliIo, target: PolicyTarget): Promise<number> {
  await withServices(io, async (services) => {
    const now = io.now();
    const tenant = await openTarget(services, target, now);
    const policy = await readPolicy(tenant.database);
    const readiness = await hybridReadiness(tenant, {
      embeddings: services.embeddings,
      defaultModelId: services.config.embeddingModel,
      now,
    });
    const setBy =
      policy.updatedBy === null
        ? 'nobody (the autopilot decides)'
        : `${policy.updatedBy}${policy.updatedAt === null ? '' : ` at ${policy.updatedAt}`}`;
    const autopilot = !services.config.graphAutopilot
      ? 'off (MEMORY_GRAPH_AUTOPILOT)'
      : setByOperator(policy.updatedBy)
        ? 'on, but an operator set this policy: it is kept'
        : 'on';
    const coverage = readiness.memories === 0 ? 0 : Math.floor((readiness.vectors / readiness.memories) * 1000) / 10;
    io.stdout.write(
      [
        `policy of ${describeTarget(target)}`,
        `default:    ${policy.defaultStrategy}`,
        `set by:     ${setBy}`,
        `decision:   ${policy.lastDecision ?? '-'}`,
        `autopilot:  ${autopilot}`,
        `readiness:  ${readiness.ready ? 'ready for hybrid' : `not ready (${readiness.reasonCodes.join(', ')})`}`,
        `  model ${readiness.modelId} (${readiness.modelAvailable ? 'available' : 'unavailable'}), ` +
          `${readiness.vectors}/${readiness.memories} memories with a vector (${coverage}%), ` +
          `${readiness.modelFailures}/${readiness.hybridRequests} hybrid requests failed by the model in 24 h`,
        '',
      ].join('\n'),
    );
  });
  return EXIT_CODES.ok;
}

/** `memory-service policy set <lexical|hybrid|auto>`: an operator's default, kept until an operator changes it. */
export async function setPolicyCommand(io: CliIo, choice: PolicyChoice, target: PolicyTarget): Promise<number> {
  await withServices(io, async (services) => {
    const now = io.now();
    const tenant = await openTarget(services, target, now);
    await setPolicyStrategy(tenant.database, choice === 'auto' ? null : choice, CLI_ACTOR, now);
  });
  io.stdout.write(
    choice === 'auto'
      ? `The default strategy of ${describeTarget(target)} is lexical until the autopilot promotes it to hybrid.\n`
      : `The default strategy of ${describeTarget(target)} is now ${choice}; the autopilot will not change it.\n`,
  );
  return EXIT_CODES.ok;
}
