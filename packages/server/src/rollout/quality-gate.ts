import type { QualityGate, ShadowMetrics } from '@memory-service/contract';
import type { WindowAggregate } from '../store/retrieval-metrics.js';

/** The gate's window (docs/architecture.md#retrieval). */
export const GATE_WINDOW_HOURS = 24;

/** Thresholds of the quality gate: the reference numbers of docs/architecture.md#retrieval. */
export const QUALITY_THRESHOLDS = {
  minHybridSamples: 20,
  maxFallbackRate: 0.15,
  maxGraphErrorFallbackRate: 0.05,
  maxFallbackRegression: 0.07,
  maxGraphErrorRegression: 0.03,
  minExpansionCoverage: 0.1,
  minShadowExecutionsForCanary: 40,
  minAverageGraphCandidatesForCanary: 1,
} as const;

/** Reason codes the gate gives, sample shortfalls first. */
export const GATE_REASONS = {
  hybridSamples: 'HYBRID_SAMPLES_BELOW_MINIMUM',
  shadowExecutions: 'SHADOW_EXECUTIONS_BELOW_MINIMUM',
  fallbackRate: 'FALLBACK_RATE_ABOVE_MAXIMUM',
  graphErrorRate: 'GRAPH_ERROR_FALLBACK_RATE_ABOVE_MAXIMUM',
  fallbackRegression: 'FALLBACK_RATE_REGRESSION',
  graphErrorRegression: 'GRAPH_ERROR_FALLBACK_RATE_REGRESSION',
  expansionCoverage: 'EXPANSION_COVERAGE_BELOW_MINIMUM',
  graphCandidates: 'AVERAGE_GRAPH_CANDIDATES_BELOW_MINIMUM',
} as const;

const SAMPLE_REASONS: ReadonlySet<string> = new Set([GATE_REASONS.hybridSamples, GATE_REASONS.shadowExecutions]);

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/**
 * The shadow metrics of a window. A hybrid sample is a call where hybrid retrieval ran (served, or beside a
 * lexical answer in shadow); the fallback rate is the share of those that fell back to lexical. Graph executions
 * (`shadowExecutions`) count every call where expansion ran, in shadow or applied by a canary, so an active
 * canary keeps its own gate measured; coverage is the share of them that found at least one candidate.
 */
export function shadowMetricsOf(current: WindowAggregate, previous: WindowAggregate): ShadowMetrics {
  return {
    windowHours: GATE_WINDOW_HOURS,
    totalRequests: current.totalRequests,
    shadowExecutions: current.graphExecutions,
    hybridSamples: current.hybridSamples,
    averageGraphCandidates: ratio(current.graphCandidates, current.graphExecutions),
    expansionCoverage: ratio(current.executionsWithCandidates, current.graphExecutions),
    fallbackRate: ratio(current.semanticFallbacks, current.hybridSamples),
    graphErrorFallbackRate: ratio(current.graphErrors, current.graphExecutions),
    averageLatencyMs: ratio(current.latencyMs, current.totalRequests),
    previousWindow: {
      fallbackRate: ratio(previous.semanticFallbacks, previous.hybridSamples),
      graphErrorFallbackRate: ratio(previous.graphErrors, previous.graphExecutions),
      samples: previous.hybridSamples,
    },
  };
}

/** The reason codes of a window's metrics against the thresholds (empty when the gate passes). */
export function gateReasons(metrics: ShadowMetrics): string[] {
  const limits = QUALITY_THRESHOLDS;
  const reasons: string[] = [];
  if (metrics.hybridSamples < limits.minHybridSamples) reasons.push(GATE_REASONS.hybridSamples);
  if (metrics.shadowExecutions < limits.minShadowExecutionsForCanary) reasons.push(GATE_REASONS.shadowExecutions);
  if (metrics.hybridSamples > 0 && metrics.fallbackRate > limits.maxFallbackRate)
    reasons.push(GATE_REASONS.fallbackRate);
  if (metrics.shadowExecutions > 0 && metrics.graphErrorFallbackRate > limits.maxGraphErrorFallbackRate) {
    reasons.push(GATE_REASONS.graphErrorRate);
  }
  // Regression is judged only against a previous window with enough samples to be a baseline.
  if (metrics.previousWindow.samples >= limits.minHybridSamples) {
    if (metrics.fallbackRate - metrics.previousWindow.fallbackRate > limits.maxFallbackRegression) {
      reasons.push(GATE_REASONS.fallbackRegression);
    }
    if (
      metrics.graphErrorFallbackRate - metrics.previousWindow.graphErrorFallbackRate >
      limits.maxGraphErrorRegression
    ) {
      reasons.push(GATE_REASONS.graphErrorRegression);
    }
  }
  if (metrics.shadowExecutions > 0 && metrics.expansionCoverage < limits.minExpansionCoverage) {
    reasons.push(GATE_REASONS.expansionCoverage);
  }
  if (metrics.shadowExecutions > 0 && metrics.averageGraphCandidates < limits.minAverageGraphCandidatesForCanary) {
    reasons.push(GATE_REASONS.graphCandidates);
  }
  return reasons;
}

/** The gate's verdict: `insufficient_data` while a sample minimum is unmet, else `blocked` on any reason, else `pass`. */
export function evaluateGate(metrics: ShadowMetrics, now: Date): QualityGate {
  const reasonCodes = gateReasons(metrics);
  const status = reasonCodes.some((code) => SAMPLE_REASONS.has(code))
    ? 'insufficient_data'
    : reasonCodes.length > 0
      ? 'blocked'
      : 'pass';
  return {
    status,
    passed: status === 'pass',
    reasonCodes,
    windowHours: GATE_WINDOW_HOURS,
    thresholds: { ...QUALITY_THRESHOLDS },
    evaluatedAt: now.toISOString(),
  };
}
