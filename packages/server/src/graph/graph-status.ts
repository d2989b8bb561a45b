import type { OperationData, QualityGate, ResolvedScope, ShadowMetrics } from '@memory-service/contract';
import type { ServerConfig } from '../config.js';
import { evaluateGate, QUALITY_THRESHOLDS, shadowMetricsOf } from '../rollout/quality-gate.js';
import { currentGate } from '../rollout/rollout-evaluation.js';
import type { Database } from '../store/database.js';
import { graphCounts, graphTables } from '../store/graph-counts.js';
import { countGraphErrorsSince, recentGraphErrors } from '../store/graph-errors.js';
import { EMPTY_WINDOW } from '../store/retrieval-metrics.js';
import { readRollout } from '../store/rollout-policy.js';

type GraphStatus = OperationData<'graph.status.get'>;
type Alarm = GraphStatus['alarms'][number];

/** Recent failures shown by graph/status. */
const RECENT_ERRORS = 10;

/** Alarms from the gate's metrics and recent failures; thresholds are the gate's, critical at twice the limit. */
function alarmsOf(metrics: ShadowMetrics, recentErrorCount: number): Alarm[] {
  const alarms: Alarm[] = [];
  const over = (code: string, value: number, threshold: number, message: string) =>
    alarms.push({ code, severity: value > threshold * 2 ? 'critical' : 'warning', message, value, threshold });
  if (metrics.hybridSamples > 0 && metrics.fallbackRate > QUALITY_THRESHOLDS.maxFallbackRate) {
    over(
      'GRAPH_FALLBACK_RATE_HIGH',
      metrics.fallbackRate,
      QUALITY_THRESHOLDS.maxFallbackRate,
      'Hybrid retrieval falls back to lexical too often',
    );
  }
  if (metrics.shadowExecutions > 0 && metrics.graphErrorFallbackRate > QUALITY_THRESHOLDS.maxGraphErrorFallbackRate) {
    over(
      'GRAPH_ERROR_RATE_HIGH',
      metrics.graphErrorFallbackRate,
      QUALITY_THRESHOLDS.maxGraphErrorFallbackRate,
      'Graph expansion fails too often',
    );
  }
  if (metrics.shadowExecutions > 0 && metrics.expansionCoverage < QUALITY_THRESHOLDS.minExpansionCoverage) {
    alarms.push({
      code: 'GRAPH_EXPANSION_COVERAGE_LOW',
      severity: 'warning',
      message: 'Graph expansion rarely finds linked memories',
      value: metrics.expansionCoverage,
      threshold: QUALITY_THRESHOLDS.minExpansionCoverage,
    });
  }
  if (recentErrorCount > 0) {
    alarms.push({
      code: 'GRAPH_RECENT_ERRORS',
      severity: 'warning',
      message: 'Graph failures were recorded in the last 24 hours',
      value: recentErrorCount,
      threshold: 0,
    });
  }
  return alarms;
}

/** `graph/status`: health, counts, rollout, the gate's metrics, alarms, top connected nodes and recent errors. */
export async function graphStatus(
  database: Database,
  input: { scope: ResolvedScope; topNodesLimit: number; config: ServerConfig; now: Date },
): Promise<GraphStatus> {
  const tables = await graphTables(database);
  const flags = { ...input.config.flags, MEMORY_GRAPH_AUTOPILOT: input.config.graphAutopilot };
  const sampledAt = input.now.toISOString();
  if (Object.values(tables).some((present) => !present)) {
    const metrics = shadowMetricsOf(EMPTY_WINDOW, EMPTY_WINDOW);
    const missing = Object.values(tables).filter((present) => !present).length;
    return {
      enabled: false,
      flags,
      health: 'schema_missing',
      tables,
      counts: { memories: 0, nodes: 0, edges: 0, memoryLinks: 0, nodesByType: {}, edgesByType: {} },
      rollout: { mode: 'off', updatedAt: null, updatedBy: null },
      shadowMetrics: metrics,
      qualityGate: evaluateGate(metrics, input.now) satisfies QualityGate,
      alarms: [
        {
          code: 'GRAPH_SCHEMA_MISSING',
          severity: 'critical',
          message: 'Graph tables are missing from this database',
          value: missing,
          threshold: 0,
        },
      ],
      topConnectedNodes: [],
      recentErrors: [],
      sampledAt,
      scope: input.scope,
    };
  }
  const { counts, topConnectedNodes } = await graphCounts(database, input.scope, input.topNodesLimit);
  const rollout = await readRollout(database, input.scope.projectId);
  const { shadowMetrics, qualityGate } = await currentGate(database, input.scope.projectId, input.now);
  const recentErrors = await recentGraphErrors(database, RECENT_ERRORS);
  const lastDayErrors = await countGraphErrorsSince(database, new Date(input.now.getTime() - 86_400_000));
  return {
    enabled: rollout.mode !== 'off',
    flags,
    health: 'ok',
    tables,
    counts,
    rollout,
    shadowMetrics,
    qualityGate,
    alarms: alarmsOf(shadowMetrics, lastDayErrors),
    topConnectedNodes,
    recentErrors,
    sampledAt,
    scope: input.scope,
  };
}
