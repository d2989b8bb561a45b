import { type ContextMode, DEFAULTS, LIMITS, type OperationData, type RetrievedMemory } from '@memory-service/contract';
import { conflictsAmong, newerAboveOlder } from '../graph/conflicts.js';
import { newerFirstPairs } from '../graph/newer-first.js';
import { type RetrievalOutcome, retrieve } from '../retrieval/retrieve.js';
import { toRetrievedMemory } from '../retrieval/search.js';
import { toMemory } from '../store/memory-rows.js';
import type { RetrievalMetricsRow } from '../store/retrieval-metrics.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { graphForContext } from './context-graph.js';
import type { ContextRequest } from './context-request.js';
import { contextTrace } from './context-trace.js';

/** Candidates fetched per requested result, so tiers can be filled after partitioning. */
const CANDIDATE_FACTOR = 4;

/** What a context call did beyond its answer, for the shadow metrics. */
export type ContextFacts = Omit<
  RetrievalMetricsRow,
  'projectId' | 'userId' | 'rolloutMode' | 'strategySelected' | 'strategyApplied' | 'latencyMs'
>;

/** Splits ranked candidates into the working and long-term tiers (docs/architecture.md#retrieval). */
export function partitionTiers(ranked: readonly RetrievedMemory[], mode: ContextMode, limit: number) {
  const working = ranked.filter((memory) => memory.layer === 'working');
  const longTerm = ranked.filter((memory) => memory.layer !== 'working');
  if (mode === 'working') return { working: working.slice(0, limit), longTerm: [] };
  if (mode === 'long_term') return { working: [], longTerm: longTerm.slice(0, limit) };
  if (mode === 'rules_only') return { working: [], longTerm: [] };
  const workingTier = working.slice(0, Math.min(limit, DEFAULTS.workingMemorySlots));
  return { working: workingTier, longTerm: longTerm.slice(0, limit - workingTier.length) };
}

/**
 * The newest live rules visible to the request, at most `LIMITS.contextRules.max` (they are standing instructions,
 * not ranked); `truncated` when more exist. A superseded memory is never served as current truth: it is left out in
 * the query, so it takes no place under the cap.
 */
async function rulesFor(
  tenant: TenantDatabase,
  request: ContextRequest,
): Promise<{ rules: RetrievedMemory[]; truncated: boolean }> {
  if (!request.includeRules && request.mode !== 'rules_only') return { rules: [], truncated: false };
  const max = LIMITS.contextRules.max;
  // One row past the cap says whether rules were left out.
  const rows = await tenant.memories.liveRules(request.scope, request.now, max + 1);
  const rules = rows.slice(0, max).map((row): RetrievedMemory => ({ ...toMemory(row), score: 1, source: 'rule' }));
  return { rules, truncated: rows.length > max };
}

/** Skill files for the bundle: at most `DEFAULTS.contextSkillFiles`, whole, within `LIMITS.contextSkillFileBytes`. */
async function skillFilesFor(tenant: TenantDatabase, request: ContextRequest) {
  if (!request.includeSkillFiles || request.mode === 'rules_only') return { files: [], omitted: 0 };
  const budget = { files: DEFAULTS.contextSkillFiles, bytes: LIMITS.contextSkillFileBytes };
  return tenant.skills.selectForContext(request.scope, request.query, budget, request.now);
}

/** The ranked candidates of the request's strategy, superseded ones left out (none for `rules_only`). */
async function rankedCandidates(tenant: TenantDatabase, request: ContextRequest, candidateLimit: number) {
  if (request.mode === 'rules_only') return { outcome: null, ranked: [] };
  const outcome: RetrievalOutcome = await retrieve(tenant, {
    query: request.query,
    scope: request.scope,
    limit: candidateLimit,
    strategy: request.strategy,
    excludeLayer: 'rule',
    recencyFallback: true,
    // The request's clock: "last week" in the query is the week before this request.
    now: request.now,
    embeddings: request.embeddings,
  });
  const ranked = outcome.candidates.filter((candidate) => candidate.row.superseded_by === null).map(toRetrievedMemory);
  return { outcome, ranked };
}

/**
 * The served lists in their final order: known conflicts first, then pairs of the same subject whose newer says it
 * changed or restates it (`newer`: none for a query that names a time, ordered by it already), each newer just above
 * its older.
 */
function newerFirst(
  lists: { served: RetrievedMemory[]; working: RetrievedMemory[]; longTerm: RetrievedMemory[] },
  conflicts: Awaited<ReturnType<typeof conflictsAmong>>,
  newer: Awaited<ReturnType<typeof newerFirstPairs>>,
) {
  const pairs = [...conflicts, ...newer];
  return {
    memories: newerAboveOlder(lists.served, pairs),
    workingMemories: newerAboveOlder(lists.working, pairs),
    longTermMemories: newerAboveOlder(lists.longTerm, pairs),
  };
}

/**
 * Builds the `context/get` bundle with the facts the shadow metrics record: rules, tiers, graph expansion per the
 * rollout (graph-expanded memories follow the baseline's `limit` results, at most graphLimit of them), conflicts,
 * skill files and an honest trace.
 */
export async function assembleContext(tenant: TenantDatabase, request: ContextRequest) {
  const started = performance.now();
  await tenant.expireWorkingMemories(request.now);
  const candidateLimit = Math.max(request.limit * CANDIDATE_FACTOR, 20);
  // Rules and skill files need nothing of the ranking: they are read while it runs (a file database's reads run on as
  // many worker threads as are free).
  const [{ rules, truncated: rulesTruncated }, { outcome, ranked }, { files: skillFiles, omitted: skillFilesOmitted }] =
    await Promise.all([
      rulesFor(tenant, request),
      rankedCandidates(tenant, request, candidateLimit),
      skillFilesFor(tenant, request),
    ]);
  const tiers = partitionTiers(ranked, request.mode, request.limit);
  const selected = new Set([...tiers.working, ...tiers.longTerm].map((memory) => memory.id));
  const baseline = ranked.filter((memory) => selected.has(memory.id));
  const rolloutMode = request.rolloutMode ?? 'off';
  const hybrid = request.strategy === 'hybrid';
  const graph = await graphForContext(tenant, {
    ...request,
    rolloutMode,
    hybrid,
    candidateLimit,
    servedIds: baseline.map((memory) => memory.id),
    ruleIds: rules.map((rule) => rule.id),
  });
  const { expanded } = graph;
  const served = [...baseline, ...expanded];
  // Known conflicts and same-subject pairs are read at once (each a statement over the served memories' edges).
  const [conflicts, newer] = await Promise.all([
    conflictsAmong(tenant.database, [...rules, ...served]),
    outcome?.time != null ? [] : newerFirstPairs(tenant, served),
  ]);
  const ordered = newerFirst(
    {
      served,
      working: [...tiers.working, ...expanded.filter((memory) => memory.layer === 'working')],
      longTerm: [...tiers.longTerm, ...expanded.filter((memory) => memory.layer !== 'working')],
    },
    conflicts,
    newer,
  );
  const data: OperationData<'context.get'> = {
    mode: request.mode,
    query: request.query,
    rules,
    memories: ordered.memories,
    conflicts,
    skillFiles,
    workingMemories: ordered.workingMemories,
    longTermMemories: ordered.longTermMemories,
    trace: contextTrace(request, outcome, graph, {
      rolloutMode,
      conflictCount: conflicts.length,
      rulesTruncated,
      skillFilesOmitted,
      started,
    }),
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
