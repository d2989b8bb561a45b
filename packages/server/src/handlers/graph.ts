import { normalizeStrategy, type RolloutMode, strategyInRequestVocabulary } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import { graphStatus } from '../graph/graph-status.js';
import type { Handler, HandlerContext } from '../pipeline/handler-types.js';
import { currentGate, evaluateRollout } from '../rollout/rollout-evaluation.js';
import { writeRollout } from '../store/rollout-policy.js';
import { runContext } from './context.js';

/** `graph/status` (GET and POST). */
const status = async (input: { topNodesLimit: number }, context: HandlerContext) =>
  graphStatus((await context.tenant()).database, {
    scope: context.scope,
    topNodesLimit: input.topNodesLimit,
    config: context.services.config,
    now: context.now,
  });

/** `GET /graph/status`. */
export const getGraphStatus: Handler<'graph.status.get'> = status;
/** `POST /graph/status`. */
export const postGraphStatus: Handler<'graph.status.post'> = status;

/**
 * `graph/trace`: a context call (limit 10 by default, metrics not recorded: it is a diagnostic) explained.
 * `strategy.applied` speaks the request's vocabulary: legacy names (baseline, hybrid_graph) when the request used
 * one or named none, current names otherwise. `recall` lists the returned memories (rules are in `tiers.rule`).
 */
export const traceGraph: Handler<'graph.trace'> = async (input, context) => {
  const { data, settings } = await runContext(input, context, { recordMetrics: false });
  const selected = normalizeStrategy(input.strategy) ?? settings.defaultStrategy;
  const { rolloutPlan } = await evaluateRollout((await context.tenant()).database, {
    projectId: null,
    now: context.now,
    autopilotEnabled: context.services.config.graphAutopilot,
    applyAutopilot: false,
  });
  return {
    mode: data.mode,
    includeRules: input.includeRules,
    query: data.query,
    strategy: { requested: input.strategy ?? null, applied: strategyInRequestVocabulary(selected, input.strategy) },
    trace: {
      ...data.trace,
      retrievalPolicyReadyForDefaultOn: rolloutPlan.readyForDefaultOn,
      retrievalPolicyBlockerCodes: rolloutPlan.blockerCodes,
    },
    tiers: {
      rule: data.rules.map((rule) => rule.id),
      working: data.workingMemories.map((memory) => memory.id),
      longTerm: data.longTermMemories.map((memory) => memory.id),
    },
    recall: data.memories.map((memory, index) => ({
      rank: index + 1,
      memoryId: memory.id,
      score: memory.score,
      source: memory.source === 'graph_expansion' ? 'graph_expansion' : 'baseline',
      tier: memory.layer === 'working' ? 'working' : 'long_term',
      ...(memory.graph === undefined ? {} : { graph: memory.graph }),
    })),
    rules: data.rules,
    memories: data.memories,
  };
};

async function rolloutData(context: HandlerContext, applyAutopilot: boolean) {
  const evaluation = await evaluateRollout((await context.tenant()).database, {
    projectId: context.scope.projectId,
    now: context.now,
    autopilotEnabled: context.services.config.graphAutopilot,
    applyAutopilot,
  });
  return { ...evaluation, scope: context.scope };
}

/** `GET /graph/rollout`: evaluates the gate and plan; on the tenant scope it may apply the autopilot. */
export const getRollout: Handler<'graph.rollout.get'> = async (_input, context) => rolloutData(context, true);

/** Sets the mode of a scope; canary only when the quality gate passes, else 409 CANARY_ROLLOUT_BLOCKED. */
const setRollout = async (input: { mode: RolloutMode }, context: HandlerContext) => {
  const { database } = await context.tenant();
  if (input.mode === 'canary') {
    const { qualityGate } = await currentGate(database, context.scope.projectId, context.now);
    if (!qualityGate.passed) {
      throw new ApiError('CANARY_ROLLOUT_BLOCKED', 'Canary rollout is blocked by the quality gate', {
        reasonCodes: qualityGate.reasonCodes,
        qualityStatus: qualityGate.status,
        windowHours: qualityGate.windowHours,
      });
    }
  }
  const updatedBy = context.caller.keyId === null ? context.caller.kind : `api_key:${context.caller.keyId}`;
  await writeRollout(database, context.scope.projectId, input.mode, updatedBy, context.now);
  return rolloutData(context, false);
};

/** `POST /graph/rollout`. */
export const postRollout: Handler<'graph.rollout.post'> = setRollout;
/** `PATCH /graph/rollout`. */
export const patchRollout: Handler<'graph.rollout.patch'> = setRollout;
