import { LEGACY_STRATEGY_NAMES, type OperationData, type RolloutMode } from '@memory-service/contract';
import type { RetrievalOutcome } from '../retrieval/retrieve.js';
import type { graphForContext } from './context-graph.js';
import type { ContextRequest } from './context-request.js';

type ContextTrace = OperationData<'context.get'>['trace'];
type ContextGraph = Awaited<ReturnType<typeof graphForContext>>;

/** What the trace of a `context/get` answer reports beyond the request, the retrieval and the graph stage. */
export interface TraceCounts {
  rolloutMode: RolloutMode;
  conflictCount: number;
  rulesTruncated: boolean;
  skillFilesOmitted: number;
  /** When assembly started (`performance.now()`), for `durationMs`. */
  started: number;
}

/**
 * The trace of a `context/get` answer: the strategy asked for and the one that ran (with its legacy name), any
 * fallback and why, the graph stage's candidates and whether it was served or only shadowed, and the counts of what
 * was left out. An honest account of this call: nothing in it is a default the call did not use.
 */
export function contextTrace(
  request: ContextRequest,
  outcome: RetrievalOutcome | null,
  graph: ContextGraph,
  counts: TraceCounts,
): ContextTrace {
  const baselineCandidates = outcome?.candidates.length ?? 0;
  const appliedStrategy = outcome?.appliedStrategy ?? 'lexical';
  return {
    retrievalPolicyDefaultStrategy: request.policyDefault,
    retrievalPolicyAppliedStrategy: appliedStrategy,
    strategy: LEGACY_STRATEGY_NAMES[appliedStrategy],
    retrievalPolicySelection: request.strategySelection,
    semanticStrategyRequested: request.strategy,
    semanticStrategyApplied: appliedStrategy,
    semanticFallbackTriggered: outcome?.semanticFallbackTriggered ?? false,
    semanticFallbackReason: outcome?.semanticFallbackReason ?? null,
    graphDepth: request.graphDepth,
    graphLimit: request.graphLimit,
    rolloutMode: counts.rolloutMode,
    shadowExecuted: graph.executed && !graph.applied,
    baselineCandidates,
    graphCandidates: graph.candidates,
    graphExpandedCount: graph.expanded.length,
    conflictCount: counts.conflictCount,
    totalCandidates: baselineCandidates + (graph.applied ? graph.candidates : 0),
    fallbackTriggered: outcome?.fallbackTriggered ?? false,
    fallbackReason: outcome?.fallbackReason ?? null,
    embeddingModel: outcome?.embeddingModel ?? null,
    durationMs: Math.round((performance.now() - counts.started) * 100) / 100,
    rulesTruncated: counts.rulesTruncated,
    skillFilesOmitted: counts.skillFilesOmitted,
    ...(outcome?.time == null ? {} : { time: outcome.time }),
  };
}
