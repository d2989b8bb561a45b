import type {
  QualityGate,
  RetrievalPolicy,
  RolloutMode,
  RolloutPlanSchema,
  ShadowMetrics,
} from '@memory-service/contract';
import type * as z from 'zod';
import { QUALITY_THRESHOLDS } from './quality-gate.js';

/** The rollout plan as the contract shapes it. */
export type RolloutPlan = z.infer<typeof RolloutPlanSchema>;

/** Consecutive ready windows before the policy default becomes hybrid (docs/architecture.md#retrieval). */
export const REQUIRED_READY_WINDOWS = 2;

/** Blockers of default-on besides the gate's own reason codes. */
export const PLAN_BLOCKERS = {
  notCanary: 'ROLLOUT_NOT_CANARY',
  readyWindows: 'READY_WINDOWS_BELOW_REQUIRED',
} as const;

/** What the autopilot did on this evaluation. */
export interface AutopilotOutcome {
  enabled: boolean;
  applied: boolean;
  reason: string | null;
}

/** The mode to move to next: off -> shadow; shadow -> canary once the gate passes; canary -> shadow if blocked. */
export function recommendedMode(mode: RolloutMode, gate: QualityGate): RolloutMode {
  if (mode === 'off') return 'shadow';
  if (mode === 'shadow') return gate.passed ? 'canary' : 'shadow';
  return gate.status === 'blocked' ? 'shadow' : 'canary';
}

/** Blockers of making hybrid the default: the gate's reasons, a mode other than canary, too few ready windows. */
export function defaultOnBlockers(mode: RolloutMode, gate: QualityGate, readyWindowStreak: number): string[] {
  const blockers = [...gate.reasonCodes];
  if (mode !== 'canary') blockers.push(PLAN_BLOCKERS.notCanary);
  if (readyWindowStreak < REQUIRED_READY_WINDOWS) blockers.push(PLAN_BLOCKERS.readyWindows);
  return blockers;
}

/** The rollout plan (docs/architecture.md#retrieval): recommendation, default-on decision, gaps to the goals, SLOs and the autopilot. */
export function buildRolloutPlan(input: {
  mode: RolloutMode;
  gate: QualityGate;
  metrics: ShadowMetrics;
  policy: RetrievalPolicy;
  readyWindowStreak: number;
  autopilot: AutopilotOutcome;
}): RolloutPlan {
  const limits = QUALITY_THRESHOLDS;
  const blockerCodes = defaultOnBlockers(input.mode, input.gate, input.readyWindowStreak);
  const readyForDefaultOn = blockerCodes.length === 0;
  const gap = (value: number) => Math.max(0, Math.round(value * 10_000) / 10_000);
  return {
    recommendedMode: recommendedMode(input.mode, input.gate),
    defaultBehaviorDecision:
      input.policy.defaultStrategy === 'hybrid'
        ? 'hybrid_default'
        : readyForDefaultOn
          ? 'promote_hybrid'
          : 'keep_lexical',
    readyForDefaultOn,
    blockerCodes,
    baseline: {
      fallbackRateGap: gap(input.metrics.fallbackRate - limits.maxFallbackRate),
      expansionCoverageGap: gap(limits.minExpansionCoverage - input.metrics.expansionCoverage),
      hybridSamplesGap: Math.max(0, limits.minHybridSamples - input.metrics.hybridSamples),
      shadowExecutionsGap: Math.max(0, limits.minShadowExecutionsForCanary - input.metrics.shadowExecutions),
    },
    slo: {
      maxFallbackRate: limits.maxFallbackRate,
      maxGraphErrorFallbackRate: limits.maxGraphErrorFallbackRate,
      minExpansionCoverage: limits.minExpansionCoverage,
      minHybridSamples: limits.minHybridSamples,
      minShadowExecutions: limits.minShadowExecutionsForCanary,
      requiredReadyWindows: REQUIRED_READY_WINDOWS,
    },
    autopilot: input.autopilot,
  };
}
