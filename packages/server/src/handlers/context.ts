import { type ContextGetInputSchema, normalizeStrategy } from '@memory-service/contract';
import type * as z from 'zod';
import { assembleContext } from '../context/context-bundle.js';
import type { Handler, HandlerContext } from '../pipeline/handler-types.js';
import { pendingIndexJobs, TRACE_PENDING_CAP } from '../store/index-jobs.js';
import { recordRetrievalMetrics } from '../store/retrieval-metrics.js';
import { policyDefault } from './policy-default.js';

/** A context request after validation (context/get and graph/trace share it; only their defaults differ). */
export type ContextInput = z.output<typeof ContextGetInputSchema>;

/**
 * Runs a context call: the strategy is the request's, else the tenant's retrieval policy default (lexical until
 * promoted, by the autopilot once hybrid is ready: `rollout/policy-autopilot.ts`); the scope's rollout mode decides
 * the graph. With `recordMetrics` (context/get) the call's shadow metrics row is written; a failure to write it is
 * logged and never fails the call. The trace adds `indexPending`: the scope's memories still waiting for their
 * vectors and graph edges (found lexically meanwhile).
 */
export async function runContext(input: ContextInput, context: HandlerContext, options: { recordMetrics: boolean }) {
  const tenant = await context.tenant();
  const { database } = tenant;
  const requested = normalizeStrategy(input.strategy);
  const settings = await policyDefault(tenant, context, { applied: requested === undefined });
  const strategy = requested ?? settings.defaultStrategy;
  // Counted beside the assembly (a statement of its own, needing nothing of it).
  const indexPending = pendingIndexJobs(database, context.scope, TRACE_PENDING_CAP);
  indexPending.catch(() => undefined);
  const assembled = await assembleContext(tenant, {
    query: input.query ?? '',
    scope: context.scope,
    limit: input.limit,
    mode: input.mode,
    includeRules: input.includeRules,
    includeSkillFiles: input.includeSkillFiles,
    graphDepth: input.graphDepth,
    graphLimit: input.graphLimit,
    strategy,
    strategySelection: requested === undefined ? 'policy_default' : 'request',
    policyDefault: settings.defaultStrategy,
    rolloutMode: settings.rolloutMode,
    now: context.now,
    embeddings: context.services.embeddings,
  });
  if (options.recordMetrics) {
    const { trace } = assembled.data;
    recordRetrievalMetrics(
      database,
      {
        projectId: context.scope.projectId,
        userId: context.scope.userId,
        rolloutMode: settings.rolloutMode,
        strategySelected: strategy,
        strategyApplied: trace.retrievalPolicyAppliedStrategy,
        latencyMs: trace.durationMs,
        ...assembled.facts,
      },
      context.now,
    );
  }
  // An additive trace field: the contract's trace lists what every server reports, this server says a little more.
  const trace = {
    ...assembled.data.trace,
    indexPending: await indexPending,
  };
  return { ...assembled, data: { ...assembled.data, trace }, settings };
}

/** `context/get`. */
export const getContext: Handler<'context.get'> = async (input, context) =>
  (await runContext(input, context, { recordMetrics: true })).data;
