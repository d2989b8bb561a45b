import {
  type ContextMode,
  DEFAULTS,
  type OperationData,
  type ResolvedScope,
  type RetrievedMemory,
  type Strategy,
} from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { MemoryStore, toMemory } from '../store/memories.js';
import { SkillStore } from '../store/skills.js';
import { retrieve } from './retrieve.js';
import { toRetrievedMemory } from './search.js';

/** At most this many rules are returned (they are standing instructions, not ranked). */
const MAX_RULES = 100;
/** Candidates fetched per requested result, so tiers can be filled after partitioning. */
const CANDIDATE_FACTOR = 4;

/** What a context request asks for, after validation and strategy selection. */
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
  now: Date;
}

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

/** Builds the `context/get` bundle: rules, tiers, skill files and an honest trace. */
export async function buildContextBundle(
  database: Database,
  request: ContextRequest,
): Promise<OperationData<'context.get'>> {
  const started = performance.now();
  const memories = new MemoryStore(database);
  await memories.expireWorking(request.now);
  const rules: RetrievedMemory[] =
    request.includeRules || request.mode === 'rules_only'
      ? (await memories.list(request.scope, { layer: 'rule' }, MAX_RULES)).map((row) => ({
          ...toMemory(row),
          score: 1,
          source: 'rule' as const,
        }))
      : [];
  const outcome =
    request.mode === 'rules_only'
      ? null
      : await retrieve(database, {
          query: request.query,
          scope: request.scope,
          limit: Math.max(request.limit * CANDIDATE_FACTOR, 20),
          strategy: request.strategy,
          excludeLayer: 'rule',
          recencyFallback: true,
        });
  const ranked = (outcome?.candidates ?? []).map(toRetrievedMemory);
  const tiers = partitionTiers(ranked, request.mode, request.limit);
  const selected = new Set([...tiers.working, ...tiers.longTerm].map((memory) => memory.id));
  const inRankOrder = ranked.filter((memory) => selected.has(memory.id));
  const skillFiles =
    request.includeSkillFiles && request.mode !== 'rules_only'
      ? await new SkillStore(database).listForContext(
          request.scope,
          request.query,
          DEFAULTS.contextSkillFiles,
          request.now,
        )
      : [];
  return {
    mode: request.mode,
    query: request.query,
    rules,
    memories: inRankOrder,
    conflicts: [],
    skillFiles,
    workingMemories: tiers.working,
    longTermMemories: tiers.longTerm,
    trace: {
      retrievalPolicyDefaultStrategy: request.policyDefault,
      retrievalPolicyAppliedStrategy: outcome?.appliedStrategy ?? 'lexical',
      retrievalPolicySelection: request.strategySelection,
      semanticStrategyRequested: request.strategy === 'hybrid',
      semanticStrategyApplied: outcome?.appliedStrategy === 'hybrid',
      semanticFallbackTriggered: outcome?.semanticFallbackTriggered ?? false,
      semanticFallbackReason: outcome?.semanticFallbackReason ?? null,
      graphDepth: request.graphDepth,
      graphLimit: request.graphLimit,
      rolloutMode: 'off',
      shadowExecuted: false,
      baselineCandidates: outcome?.candidates.length ?? 0,
      graphCandidates: 0,
      graphExpandedCount: 0,
      conflictCount: 0,
      totalCandidates: outcome?.candidates.length ?? 0,
      fallbackTriggered: outcome?.fallbackTriggered ?? false,
      fallbackReason: outcome?.fallbackReason ?? null,
      embeddingModel: outcome?.embeddingModel ?? null,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    },
  };
}
