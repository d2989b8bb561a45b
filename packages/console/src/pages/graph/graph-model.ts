import type { ConflictPair, Memory, RetrievedMemory } from '@memory-service/client';

/** What a node of the picture stands for: a memory, or one of the nodes the service links memories through. */
export type GraphNodeKind = 'memory' | 'topic' | 'category' | 'entity' | 'query';

/** How a memory got into the picture. */
export type MemoryRole = 'focus' | 'retrieved' | 'expanded' | 'tagged' | 'unseen';

/** A node of the picture: a memory, or a topic, category, entity or the search text linking memories. */
export interface GraphNode {
  /** `memory:<id>`, or `<kind>:<label key>` as the server names its nodes (`topic:ui`). */
  id: string;
  kind: GraphNodeKind;
  label: string;
  /** Memory nodes: the record, when the picture has it (an expansion path may name a memory it did not return). */
  memory?: Memory & Partial<Pick<RetrievedMemory, 'score' | 'source' | 'graph'>>;
  role?: MemoryRole;
}

/** A graph edge type, `retrieved` (the query found the memory: not a graph edge) or `path` (a 2-hop path's hidden middle). */
export type GraphEdgeType = string;

/** A typed edge of the picture (undirected for drawing; `from` is where the API's path starts). */
export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  type: GraphEdgeType;
  confidence?: number;
  /** Graph expansion: the hop at which the `to` memory was reached. */
  hop?: number;
  note?: string;
}

/** The picture's content: a centre, nodes and typed edges. */
export interface Neighbourhood {
  centreId: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** What the centre of the picture is: a memory, or a node (entity, topic, category) or free text. */
export type GraphFocus =
  | { kind: 'memory'; memory: Memory }
  | { kind: 'node'; label: string; nodeKind: 'topic' | 'category' | 'entity' | null };

/** What the picture is built from. */
export interface NeighbourhoodInput {
  focus: GraphFocus;
  /** `context/get` for the focus (graph depth 2): the retrieved and graph-expanded memories, and their conflicts. */
  memories: readonly RetrievedMemory[];
  conflicts: readonly ConflictPair[];
  /** Memories that share a tag with the focus (`memories/list` by tags). */
  tagged: readonly Memory[];
}

/** A label as the server keys its nodes: NFKC, lower case, one space between words. */
export function labelKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Node ids reachable from the centre, by hops. */
export function distancesFrom(centreId: string, edges: readonly GraphEdge[]): Map<string, number> {
  const neighbours = new Map<string, string[]>();
  for (const edge of edges) {
    neighbours.set(edge.from, [...(neighbours.get(edge.from) ?? []), edge.to]);
    neighbours.set(edge.to, [...(neighbours.get(edge.to) ?? []), edge.from]);
  }
  const distance = new Map([[centreId, 0]]);
  const queue = [centreId];
  for (let index = 0; index < queue.length; index += 1) {
    const current = queue[index]!;
    for (const next of neighbours.get(current) ?? []) {
      if (distance.has(next)) continue;
      distance.set(next, distance.get(current)! + 1);
      queue.push(next);
    }
  }
  return distance;
}
