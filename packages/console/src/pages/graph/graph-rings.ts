import { distancesFrom, type GraphNode, type Neighbourhood } from './graph-model.js';

/** Ring 1's order: the linking nodes first, grouped by kind, then memories. */
const KIND_ORDER: Readonly<Record<GraphNode['kind'], number>> = {
  topic: 0,
  category: 1,
  entity: 2,
  query: 3,
  memory: 4,
};

function byKindAndLabel(left: GraphNode, right: GraphNode): number {
  return (
    KIND_ORDER[left.kind] - KIND_ORDER[right.kind] ||
    left.label.localeCompare(right.label) ||
    (left.id < right.id ? -1 : 1)
  );
}

/**
 * The nodes by hop count from the centre: ring 0 is the centre, ring n the nodes n edges away (a node no edge
 * reaches goes one ring further out). Within a ring, `place` gives each node's position along the ring from its
 * neighbours one ring in (their mean), so a node sits near what links it; ring 1 is ordered by kind and label.
 * Deterministic: the same neighbourhood always gives the same rings.
 */
export function ringsOf(graph: Neighbourhood): GraphNode[][] {
  const distance = distancesFrom(graph.centreId, graph.edges);
  const farthest = Math.max(0, ...distance.values());
  const rings: GraphNode[][] = [];
  for (const node of graph.nodes) {
    const ring = distance.get(node.id) ?? farthest + 1;
    rings[ring] = [...(rings[ring] ?? []), node];
  }
  // A ring left empty (only when nothing is reachable) would leave a gap: drop it.
  const filled = rings.filter((ring) => ring !== undefined && ring.length > 0);
  for (const ring of filled.slice(1, 2)) ring.sort(byKindAndLabel);
  return filled;
}

/** The neighbours of each node, both directions. */
export function neighboursOf(graph: Neighbourhood): Map<string, string[]> {
  const neighbours = new Map<string, string[]>();
  for (const edge of graph.edges) {
    neighbours.set(edge.from, [...(neighbours.get(edge.from) ?? []), edge.to]);
    neighbours.set(edge.to, [...(neighbours.get(edge.to) ?? []), edge.from]);
  }
  return neighbours;
}

/**
 * Orders a ring by where its neighbours of the ring inside sit (`positionOf`, a number along the ring; `mean` of
 * them), ties by kind, label and id; nodes with no such neighbour go last.
 */
export function orderByParents(
  ring: readonly GraphNode[],
  neighbours: ReadonlyMap<string, readonly string[]>,
  positionOf: (id: string) => number | undefined,
  mean: (positions: number[]) => number = (positions) =>
    positions.reduce((sum, value) => sum + value, 0) / positions.length,
): Array<{ node: GraphNode; desired: number | undefined }> {
  return ring
    .map((node) => {
      const positions = (neighbours.get(node.id) ?? [])
        .map(positionOf)
        .filter((position): position is number => position !== undefined);
      return { node, desired: positions.length === 0 ? undefined : mean(positions) };
    })
    .sort(
      (left, right) =>
        (left.desired ?? Number.POSITIVE_INFINITY) - (right.desired ?? Number.POSITIVE_INFINITY) ||
        byKindAndLabel(left.node, right.node),
    );
}
