import {
  type ContextMode,
  DEFAULTS,
  type OperationData,
  type ResolvedScope,
  type RetrievedMemory,
  type RolloutMode,
  type Strategy,
} from '@memory-service/contract';
import { conflictsAmong } from '../graph/conflicts.js';
import { graphForContext } from '../graph/context-graph.js';
import type { RetrievalMetricsRow } from '../rollout/metrics-store.js';
import type { Database } from '../store/database.js';
import { MemoryStore } from '../store/memories.js';
import { toMemory } from '../store/memory-rows.js';
import { SkillStore } from '../store/skills.js';
import { type RetrievalOutcome, retrieve } from './retrieve.js';
import { toRetrievedMemory } from './search.js';

/** At most this many rules are returned (they are standing instructions, not ranked). */
const MAX_RULES = 100;
/** Candidates fetched per requested result, so tiers can be filled after partitioning. */
const CANDIDATE_FACTOR = 4;

/** What a context request asks for, after validation, strategy selection and rollout lookup. */
export interface ContextRequest {
  query: string;
  scope: ResolvedScope;
  limit: number;
  mode: ContextMode;
  includeRules: boolean;
  includeSkillFiles: boolean;
  graphDepth: number;
  graphLimit: number;
  strategy: Strategy;
  strategySelection: 'request' | 'policy_default';
  policyDefault: Strategy;
  /** The scope's graph rollout mode (off when not given). */
  rolloutMode?: RolloutMode;
  now: Date;
}

/** What a context call did beyond its answer, for the shadow metrics. */
export type ContextFacts = Omit<
  RetrievalMetricsRow,
  'projectId' | 'userId' | 'rolloutMode' | 'strategySelected' | 'strategyApplied' | 'latencyMs'
>;

/** Splits ranked candidates into the working and long-term tiers (DESIGN 4). */
export function partitionTiers(ranked: readonly RetrievedMemory[], mode: ContextMode, limit: number) {
  const working = ranked.filter((memory) => memory.layer === 'working');
  const longTerm = ranked.filter((memory) => memory.layer !== 'working');
  if (mode === 'working') return { working: working.slice(0, limit), longTerm: [] };
  if (mode === 'long_term') return { working: [], longTerm: longTerm.slice(0, limit) };
  if (mode === 'rules_only') return { working: [], longTerm: [] };
  const workingTier = working.slice(0, Math.min(limit, DEFAULTS.workingMemorySlots));
  return { working: workingTier, longTerm: longTerm.slice(0, limit - workingTier.length) };
}

async function rulesFor(store: MemoryStore, request: ContextRequest): Promise<RetrievedMemory[]> {
  if (!request.includeRules && request.mode !== 'rules_only') return [];
  const rows = await store.list(request.scope, { layer: 'rule' }, MAX_RULES);
  // A superseded memory is never served as current truth.
  return rows
    .filter((row) => row.superseded_by === null)
    .map((row) => ({ ...toMemory(row), score: 1, source: 'rule' }));
}

/**
 * Builds the `context/get` bundle with the facts the shadow metrics record: rules, tiers, graph expansion per the
 * rollout (graph-expanded memories follow the baseline's `limit` results, at most graphLimit of them), conflicts,
 * skill files and an honest trace.
 */
export async function assembleContext(database: Database, request: ContextRequest) {
  const started = performance.now();
  const store = new MemoryStore(database);
  await store.expireWorking(request.now);
  const rules = await rulesFor(store, request);
  const candidateLimit = Math.max(request.limit * CANDIDATE_FACTOR, 20);
  const outcome: RetrievalOutcome | null =
    request.mode === 'rules_only'
      ? null
      : await retrieve(database, {
          query: request.query,
          scope: request.scope,
          limit: candidateLimit,
          strategy: request.strategy,
          excludeLayer: 'rule',
          recencyFallback: true,
        });
  const ranked = (outcome?.candidates ?? [])
    .filter((candidate) => candidate.row.superseded_by === null)
    .map(toRetrievedMemory);
  const tiers = partitionTiers(ranked, request.mode, request.limit);
  const selected = new Set([...tiers.working, ...tiers.longTerm].map((memory) => memory.id));
  const baseline = ranked.filter((memory) => selected.has(memory.id));
  const rolloutMode = request.rolloutMode ?? 'off';
  const hybrid = request.strategy === 'hybrid';
  const graph = await graphForContext(database, {
    ...request,
    rolloutMode,
    hybrid,
    candidateLimit,
    servedIds: baseline.map((memory) => memory.id),
    ruleIds: rules.map((rule) => rule.id),
  });
  const { expanded } = graph;
  const workingMemories = [...tiers.working, ...expanded.filter((memory) => memory.layer === 'working')];
  const longTermMemories = [...tiers.longTerm, ...expanded.filter((memory) => memory.layer !== 'working')];
  const memories = [...baseline, ...expanded];
  const conflicts = await conflictsAmong(database, [...rules, ...memories]);
  const skillFiles =
    request.includeSkillFiles && request.mode !== 'rules_only'
      ? await new SkillStore(database).listForContext(
          request.scope,
          request.query,
          DEFAULTS.contextSkillFiles,
          request.now,
        )
      : [];
  const baselineCandidates = outcome?.candidates.length ?? 0;
  const data: OperationData<'context.get'> = {
    mode: request.mode,
    query: request.query,
    rules,
    memories,
    conflicts,
    skillFiles,
    workingMemories,
    longTermMemories,
    trace: {
      retrievalPolicyDefaultStrategy: request.policyDefault,
      retrievalPolicyAppliedStrategy: outcome?.appliedStrategy ?? 'lexical',
      retrievalPolicySelection: request.strategySelection,
      semanticStrategyRequested: hybrid,
      semanticStrategyApplied: outcome?.appliedStrategy === 'hybrid',
      semanticFallbackTriggered: outcome?.semanticFallbackTriggered ?? false,
      semanticFallbackReason: outcome?.semanticFallbackReason ?? null,
      graphDepth: request.graphDepth,
      graphLimit: request.graphLimit,
      rolloutMode,
      shadowExecuted: graph.executed && !graph.applied,
      baselineCandidates,
      graphCandidates: graph.candidates,
      graphExpandedCount: expanded.length,
      conflictCount: conflicts.length,
      totalCandidates: baselineCandidates + (graph.applied ? graph.candidates : 0),
      fallbackTriggered: outcome?.fallbackTriggered ?? false,
      fallbackReason: outcome?.fallbackReason ?? null,
      embeddingModel: outcome?.embeddingModel ?? null,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    },
  };
  const facts: ContextFacts = {
    hybridExecuted: (hybrid && outcome !== null) || graph.shadowHybridExecuted,
    semanticFallback: hybrid ? (outcome?.semanticFallbackTriggered ?? false) : graph.shadowSemanticFallback,
    graphExecuted: graph.executed,
    graphApplied: graph.applied,
    graphCandidates: graph.candidates,
    graphExpanded: expanded.length,
    graphError: graph.error,
  };
  return { data, facts };
}

/** Builds the `context/get` bundle (see `assembleContext`). */
export async function buildContextBundle(
  database: Database,
  request: ContextRequest,
): Promise<OperationData<'context.get'>> {
  return (await assembleContext(database, request)).data;
}
