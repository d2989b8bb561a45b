import type { QualityGate, RetrievalPolicy, ShadowMetrics } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import {
  aggregateWindows,
  EMPTY_WINDOW,
  pruneRetrievalMetrics,
  type WindowAggregate,
} from '../store/retrieval-metrics.js';
import {
  promoteToHybrid,
  type RolloutState,
  readPolicy,
  readRollout,
  setByOperator,
  writeEvaluation,
} from '../store/rollout-policy.js';
import { evaluateGate, GATE_WINDOW_HOURS, shadowMetricsOf } from './quality-gate.js';
import { type AutopilotOutcome, buildRolloutPlan, REQUIRED_READY_WINDOWS, type RolloutPlan } from './rollout-plan.js';

/** Everything `graph/rollout` reports except the scope echo. */
export interface RolloutEvaluation {
  rollout: RolloutState;
  shadowMetrics: ShadowMetrics;
  qualityGate: QualityGate;
  rolloutPlan: RolloutPlan;
  retrievalPolicy: RetrievalPolicy;
}

/** The current window's metrics and gate of a scope (used by the canary check and graph/status). */
export async function currentGate(database: Database, projectId: string | null, now: Date) {
  const [current = EMPTY_WINDOW, previous = EMPTY_WINDOW] = await aggregateWindows(database, {
    now,
    windowHours: GATE_WINDOW_HOURS,
    count: 2,
    projectId,
  });
  const shadowMetrics = shadowMetricsOf(current, previous);
  return { shadowMetrics, qualityGate: evaluateGate(shadowMetrics, now) };
}

/**
 * Consecutive ready windows ending now, counted up to the required number. A window is ready when its gate
 * passes (judged against the window before it) and a canary served calls in it.
 */
function readyStreak(windows: readonly WindowAggregate[], now: Date): number {
  let streak = 0;
  for (let index = 0; index < REQUIRED_READY_WINDOWS; index += 1) {
    const window = windows[index] ?? EMPTY_WINDOW;
    const gate = evaluateGate(shadowMetricsOf(window, windows[index + 1] ?? EMPTY_WINDOW), now);
    if (!gate.passed || window.canaryRequests === 0) break;
    streak += 1;
  }
  return streak;
}

/**
 * Evaluates the rollout of a scope. With `applyAutopilot` (GET graph/rollout on the tenant scope) the evaluation
 * is stored in the tenant's retrieval policy and, when MEMORY_GRAPH_AUTOPILOT is on, the plan is ready for
 * default-on and no operator set the policy, the policy's default strategy is promoted to hybrid. A project-scoped
 * GET reports only: the retrieval policy belongs to the tenant. (The other promotion, on readiness, is in
 * `policy-autopilot.ts`.)
 */
export async function evaluateRollout(
  database: Database,
  options: { projectId: string | null; now: Date; autopilotEnabled: boolean; applyAutopilot: boolean },
): Promise<RolloutEvaluation> {
  const { now } = options;
  if (options.applyAutopilot) await pruneRetrievalMetrics(database, now);
  const windows = await aggregateWindows(database, {
    now,
    windowHours: GATE_WINDOW_HOURS,
    count: REQUIRED_READY_WINDOWS + 1,
    projectId: options.projectId,
  });
  const shadowMetrics = shadowMetricsOf(windows[0] ?? EMPTY_WINDOW, windows[1] ?? EMPTY_WINDOW);
  const qualityGate = evaluateGate(shadowMetrics, now);
  const rollout = await readRollout(database, options.projectId);
  let policy = await readPolicy(database);
  const streak = readyStreak(windows, now);
  const draft = buildRolloutPlan({
    mode: rollout.mode,
    gate: qualityGate,
    metrics: shadowMetrics,
    policy,
    readyWindowStreak: streak,
    autopilot: { enabled: options.autopilotEnabled, applied: false, reason: null },
  });
  let autopilot = decideAutopilot(options, policy, draft.readyForDefaultOn);
  if (options.applyAutopilot && options.projectId === null) {
    const promoted = autopilot.applied && (await promoteToHybrid(database, 'promote_hybrid', now));
    await writeEvaluation(database, {
      readyWindowStreak: streak,
      lastDecision: promoted ? 'promote_hybrid' : draft.defaultBehaviorDecision,
      lastEvaluatedAt: now.toISOString(),
    });
    // Read back: a promotion refused because an operator set the policy meanwhile is reported as not applied.
    policy = await readPolicy(database);
    if (autopilot.applied && !promoted) autopilot = { ...autopilot, applied: false, reason: 'operator_policy' };
  }
  const rolloutPlan = buildRolloutPlan({
    mode: rollout.mode,
    gate: qualityGate,
    metrics: shadowMetrics,
    policy,
    readyWindowStreak: streak,
    autopilot,
  });
  return { rollout, shadowMetrics, qualityGate, rolloutPlan, retrievalPolicy: policy };
}

function decideAutopilot(
  options: { projectId: string | null; autopilotEnabled: boolean; applyAutopilot: boolean },
  policy: RetrievalPolicy,
  ready: boolean,
): AutopilotOutcome {
  const enabled = options.autopilotEnabled;
  const outcome = (applied: boolean, reason: string) => ({ enabled, applied, reason });
  if (!enabled) return outcome(false, 'autopilot_disabled');
  if (!options.applyAutopilot) return outcome(false, 'evaluated_on_get_only');
  if (options.projectId !== null) return outcome(false, 'tenant_scope_only');
  if (setByOperator(policy.updatedBy)) return outcome(false, 'operator_policy');
  if (policy.defaultStrategy === 'hybrid') return outcome(false, 'already_hybrid_default');
  if (!ready) return outcome(false, 'not_ready_for_default_on');
  return outcome(true, 'ready_windows_reached');
}
