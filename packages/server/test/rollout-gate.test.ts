import { describe, expect, it } from 'vitest';
import { evaluateGate, shadowMetricsOf } from '../src/rollout/quality-gate.js';
import { buildRolloutPlan, recommendedMode } from '../src/rollout/rollout-plan.js';
import { EMPTY_WINDOW, type WindowAggregate } from '../src/store/retrieval-metrics.js';
import { INITIAL_POLICY } from '../src/store/rollout-policy.js';

const now = new Date('2026-03-01T12:00:00.000Z');
/** A window of `calls` hybrid calls, all with the graph executed, shaped by `overrides`. */
function window(calls: number, overrides: Partial<WindowAggregate> = {}): WindowAggregate {
  return {
    ...EMPTY_WINDOW,
    totalRequests: calls,
    hybridSamples: calls,
    graphExecutions: calls,
    executionsWithCandidates: calls,
    graphCandidates: calls * 2,
    canaryRequests: calls,
    latencyMs: calls * 4,
    ...overrides,
  };
}
const gateOf = (current: WindowAggregate, previous: WindowAggregate = EMPTY_WINDOW) =>
  evaluateGate(shadowMetricsOf(current, previous), now);

describe('quality gate (docs/architecture.md#retrieval reference numbers)', () => {
  it('passes a healthy window and reports its metrics', () => {
    const metrics = shadowMetricsOf(
      window(40, { semanticFallbacks: 6, graphErrors: 2, executionsWithCandidates: 4 }),
      EMPTY_WINDOW,
    );
    expect(metrics).toMatchObject({
      windowHours: 24,
      totalRequests: 40,
      shadowExecutions: 40,
      hybridSamples: 40,
      averageGraphCandidates: 2,
      expansionCoverage: 0.1,
      fallbackRate: 0.15,
      graphErrorFallbackRate: 0.05,
      averageLatencyMs: 4,
    });
    expect(evaluateGate(metrics, now)).toMatchObject({
      status: 'pass',
      passed: true,
      reasonCodes: [],
      windowHours: 24,
    });
  });

  it('asks for 20 hybrid samples and 40 graph executions before judging', () => {
    expect(gateOf(EMPTY_WINDOW)).toMatchObject({
      status: 'insufficient_data',
      reasonCodes: ['HYBRID_SAMPLES_BELOW_MINIMUM', 'SHADOW_EXECUTIONS_BELOW_MINIMUM'],
    });
    expect(gateOf(window(39)).reasonCodes).toEqual(['SHADOW_EXECUTIONS_BELOW_MINIMUM']);
    expect(gateOf(window(40, { hybridSamples: 19 })).reasonCodes).toEqual(['HYBRID_SAMPLES_BELOW_MINIMUM']);
  });

  it('blocks on each threshold just past its limit', () => {
    expect(gateOf(window(40, { semanticFallbacks: 7 }))).toMatchObject({
      status: 'blocked',
      reasonCodes: ['FALLBACK_RATE_ABOVE_MAXIMUM'],
    });
    expect(gateOf(window(40, { graphErrors: 3 })).reasonCodes).toEqual(['GRAPH_ERROR_FALLBACK_RATE_ABOVE_MAXIMUM']);
    expect(gateOf(window(40, { executionsWithCandidates: 3 })).reasonCodes).toEqual([
      'EXPANSION_COVERAGE_BELOW_MINIMUM',
    ]);
    expect(gateOf(window(40, { graphCandidates: 39 })).reasonCodes).toEqual(['AVERAGE_GRAPH_CANDIDATES_BELOW_MINIMUM']);
  });

  it('blocks a regression against a previous window with enough samples only', () => {
    const current = window(40, { semanticFallbacks: 5, graphErrors: 2 });
    const cleanPrevious = window(20);
    expect(gateOf(current, cleanPrevious).reasonCodes).toEqual([
      'FALLBACK_RATE_REGRESSION',
      'GRAPH_ERROR_FALLBACK_RATE_REGRESSION',
    ]);
    expect(gateOf(current, window(19)).reasonCodes).toEqual([]);
    expect(gateOf(window(40, { semanticFallbacks: 2 }), cleanPrevious).reasonCodes).toEqual([]);
  });
});

describe('rollout plan', () => {
  it('recommends the next mode from the current one and the gate', () => {
    const pass = gateOf(window(40));
    const blocked = gateOf(window(40, { semanticFallbacks: 40 }));
    const insufficient = gateOf(EMPTY_WINDOW);
    expect(recommendedMode('off', pass)).toBe('shadow');
    expect(recommendedMode('shadow', pass)).toBe('canary');
    expect(recommendedMode('shadow', insufficient)).toBe('shadow');
    expect(recommendedMode('canary', insufficient)).toBe('canary');
    expect(recommendedMode('canary', blocked)).toBe('shadow');
  });

  it('reports gaps to the goals and the default-on blockers', () => {
    const metrics = shadowMetricsOf(
      window(10, { semanticFallbacks: 5, executionsWithCandidates: 0, graphCandidates: 0 }),
      EMPTY_WINDOW,
    );
    const plan = buildRolloutPlan({
      mode: 'shadow',
      gate: evaluateGate(metrics, now),
      metrics,
      policy: INITIAL_POLICY,
      readyWindowStreak: 0,
      autopilot: { enabled: true, applied: false, reason: null },
    });
    expect(plan).toMatchObject({
      recommendedMode: 'shadow',
      defaultBehaviorDecision: 'keep_lexical',
      readyForDefaultOn: false,
      baseline: { fallbackRateGap: 0.35, expansionCoverageGap: 0.1, hybridSamplesGap: 10, shadowExecutionsGap: 30 },
      slo: {
        maxFallbackRate: 0.15,
        maxGraphErrorFallbackRate: 0.05,
        minExpansionCoverage: 0.1,
        minHybridSamples: 20,
        minShadowExecutions: 40,
        requiredReadyWindows: 2,
      },
    });
    expect(plan.blockerCodes).toEqual([
      'HYBRID_SAMPLES_BELOW_MINIMUM',
      'SHADOW_EXECUTIONS_BELOW_MINIMUM',
      'FALLBACK_RATE_ABOVE_MAXIMUM',
      'EXPANSION_COVERAGE_BELOW_MINIMUM',
      'AVERAGE_GRAPH_CANDIDATES_BELOW_MINIMUM',
      'ROLLOUT_NOT_CANARY',
      'READY_WINDOWS_BELOW_REQUIRED',
    ]);
  });
});
