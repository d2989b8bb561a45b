import type { InProcessServer } from './in-process-server.js';

/**
 * The strategies the benchmark compares. `default` names none: what a middleware user (or any client that sets no
 * strategy) gets, the tenant's policy default, asked through `context/get` as the middleware asks it.
 */
export const STRATEGIES = ['lexical', 'hybrid', 'hybrid_graph', 'default'] as const;
/** One of `STRATEGIES`. */
export type BenchStrategy = (typeof STRATEGIES)[number];

interface ServedMemory {
  id: string;
  source: string;
}

/** What the graph did during a hybrid_graph run. */
export interface GraphFacts {
  /** Tenants whose rollout reached canary (expansion served); the others ran the graph in shadow only. */
  canaryTenants: number;
  tenants: number;
  blockedReasonCodes: string[];
  /** Graph-expanded memories served within the budgets of all questions and ks. */
  expandedServed: number;
}

/** A ranked list of memory ids for a question, and whether hybrid fell back to lexical. */
export interface Ranking {
  ids: string[];
  semanticFallback: boolean;
  /** How many of the ids are graph-expanded memories. */
  expanded: number;
  /** The strategy that answered (lexical after a semantic fallback). */
  applied: string;
}

/** The parts of a context/get answer the benchmark reads. */
interface ContextAnswer {
  memories: ServedMemory[];
  trace: { semanticFallbackTriggered: boolean; retrievalPolicyAppliedStrategy: string };
}

/**
 * hybrid_graph spends a quarter of each budget of k results on graph expansion: context/get serves `limit` baseline
 * memories followed by up to `graphLimit` expanded ones, so a budget k asks limit k - g and graphLimit g (g >= 1).
 */
export const GRAPH_SHARE = 0.25;

/** The context/get limits for a budget of k results. */
export function graphBudget(k: number): { limit: number; graphLimit: number } {
  const graphLimit = Math.max(1, Math.floor(k * GRAPH_SHARE));
  return { limit: Math.max(1, k - graphLimit), graphLimit };
}

/**
 * Asks the server for a ranking. lexical/hybrid: `memories/search`. hybrid_graph: `context/get` with strategy
 * hybrid and graphDepth 1 within a budget of `limit` (see `graphBudget`); the served list is the baseline in rank
 * order followed by the graph-expanded memories. default: `context/get` with no strategy and the middleware's
 * defaults otherwise (rules and skill files left out: the conversations have none).
 */
export async function rank(
  server: InProcessServer,
  strategy: BenchStrategy,
  tenantId: string,
  query: string,
  limit: number,
): Promise<Ranking> {
  const scope = { tenantId };
  if (strategy === 'hybrid_graph' || strategy === 'default') {
    const request =
      strategy === 'default' ? { query, limit } : { query, strategy: 'hybrid', ...graphBudget(limit), graphDepth: 1 };
    const bundle = await server.call<ContextAnswer>('POST', '/context/get', {
      ...request,
      includeRules: false,
      includeSkillFiles: false,
      scope,
    });
    return {
      ids: bundle.memories.map((memory) => memory.id),
      semanticFallback: bundle.trace.semanticFallbackTriggered,
      expanded: bundle.memories.filter((memory) => memory.source === 'graph_expansion').length,
      applied: bundle.trace.retrievalPolicyAppliedStrategy,
    };
  }
  const result = await server.call<{
    memories: ServedMemory[];
    trace: { semanticFallbackTriggered: boolean; appliedStrategy: string };
  }>('POST', '/memories/search', { query, strategy, limit, scope });
  return {
    ids: result.memories.map((memory) => memory.id),
    semanticFallback: result.trace.semanticFallbackTriggered,
    expanded: 0,
    applied: result.trace.appliedStrategy,
  };
}

/**
 * Puts a tenant's graph rollout in canary through the API, as an operator would: shadow first, `warmUp` (which
 * runs context calls that record shadow samples), then canary. Returns the gate's reason codes when it blocks.
 */
export async function promoteGraph(
  server: InProcessServer,
  tenantId: string,
  warmUp: () => Promise<void>,
): Promise<{ canary: boolean; reasonCodes: string[] }> {
  const scope = { tenantId };
  await server.call('PATCH', '/graph/rollout', { mode: 'shadow', scope });
  await warmUp();
  const promoted = await server.attempt('PATCH', '/graph/rollout', { mode: 'canary', scope });
  if (promoted.error === null) return { canary: true, reasonCodes: [] };
  const codes = promoted.error.details?.reasonCodes;
  return { canary: false, reasonCodes: Array.isArray(codes) ? codes.map(String) : [promoted.error.code] };
}
