import type { GraphExplainability, ResolvedScope } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { edgeNeighbours, type NeighbourFilter, nodeNeighbours, type PathStep } from '../store/graph-paths.js';
import { EDGE_WEIGHTS } from './graph-model.js';

/** What to expand from. */
export interface ExpansionRequest {
  /** Seed memory ids (the baseline's results), best first. */
  seedIds: readonly string[];
  /** Memories already in the answer (seeds, rules): never expanded into it again. */
  excludeIds: ReadonlySet<string>;
  depth: number;
  limit: number;
  scope: ResolvedScope;
  layer: 'working' | 'long_term' | null;
}

/** A memory reached by expansion, with its best path. */
export interface ExpandedCandidate {
  memoryId: string;
  score: number;
  occurredAt: string;
  graph: GraphExplainability;
}

/** Every candidate found (for `graphCandidates`), best first; the caller keeps `limit` of them. */
export interface ExpansionResult {
  candidates: ExpandedCandidate[];
}

/** Path rows read per hop and direction: enough to rank `limit` candidates without reading a hub's whole fan-out. */
function rowsPerHop(limit: number): number {
  return Math.max(100, limit * 10);
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Candidates of one hop, keeping the best path per memory (score = edge weight x path confidence / hops). */
function scoreHop(
  steps: readonly PathStep[],
  origins: ReadonlyMap<string, { seedId: string; confidence: number }>,
  hop: number,
  blocked: ReadonlySet<string>,
): Map<string, ExpandedCandidate> {
  const best = new Map<string, ExpandedCandidate>();
  for (const step of steps) {
    const origin = origins.get(step.fromId);
    if (origin === undefined || blocked.has(step.memoryId)) continue;
    const confidence = Math.min(1, origin.confidence * step.confidence);
    const score = (EDGE_WEIGHTS[step.edgeType] * confidence) / hop;
    const current = best.get(step.memoryId);
    if (
      current !== undefined &&
      (current.score > score || (current.score === score && current.graph.seedMemoryId <= origin.seedId))
    ) {
      continue;
    }
    best.set(step.memoryId, {
      memoryId: step.memoryId,
      score: round(score),
      occurredAt: step.occurredAt,
      graph: {
        whyIncluded: 'graph_expansion',
        linkedViaNode: step.via,
        edgeType: step.edgeType,
        hopCount: hop,
        confidence: round(confidence),
        seedMemoryId: origin.seedId,
      },
    });
  }
  return best;
}

function byScore(left: ExpandedCandidate, right: ExpandedCandidate): number {
  return (
    right.score - left.score ||
    right.occurredAt.localeCompare(left.occurredAt) ||
    left.memoryId.localeCompare(right.memoryId)
  );
}

/**
 * Graph expansion (docs/architecture.md#retrieval): from the seeds through shared nodes (topics, categories, entities) and
 * memory-to-memory edges, one or two hops. Only live, current (never superseded), visible, non-rule memories
 * are reached. Two queries per hop, whatever the number of seeds.
 */
export async function expandFromSeeds(database: Database, request: ExpansionRequest): Promise<ExpansionResult> {
  if (request.seedIds.length === 0 || request.depth < 1) return { candidates: [] };
  const filter: NeighbourFilter = {
    scope: request.scope,
    layer: request.layer,
    maxRows: rowsPerHop(request.limit),
    edgeWeights: EDGE_WEIGHTS,
  };
  const found = new Map<string, ExpandedCandidate>();
  const blocked = new Set([...request.excludeIds, ...request.seedIds]);
  let origins = new Map(request.seedIds.map((id) => [id, { seedId: id, confidence: 1 }]));
  for (let hop = 1; hop <= Math.min(request.depth, 2) && origins.size > 0; hop += 1) {
    const fromIds = [...origins.keys()];
    const steps = [
      ...(await nodeNeighbours(database, fromIds, filter)),
      ...(await edgeNeighbours(database, fromIds, filter)),
    ];
    const reached = [...scoreHop(steps, origins, hop, blocked).values()].sort(byScore);
    // A memory reached at hop 1 is not reached again at hop 2 (its best path is the shorter one).
    for (const candidate of reached) {
      found.set(candidate.memoryId, candidate);
      blocked.add(candidate.memoryId);
    }
    // The next hop continues from this hop's best candidates only, carrying their seed and path confidence.
    origins = new Map(
      reached
        .slice(0, request.limit)
        .map((candidate) => [
          candidate.memoryId,
          { seedId: candidate.graph.seedMemoryId, confidence: candidate.graph.confidence },
        ]),
    );
  }
  return { candidates: [...found.values()].sort(byScore) };
}
