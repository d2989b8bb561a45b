import type { GraphEdge, Neighbourhood } from './graph-model.js';

function details(edge: GraphEdge): string {
  const parts = [
    edge.hop === undefined ? null : `hop ${edge.hop}`,
    edge.confidence === undefined ? null : `confidence ${edge.confidence.toFixed(2)}`,
    edge.note ?? null,
  ].filter((part) => part !== null);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** The picture's edges as text: what the picture says, for a screen reader, a search, or a copy. */
export function GraphConnections({ graph }: { graph: Neighbourhood }) {
  const labelOf = new Map(graph.nodes.map((node) => [node.id, node.label]));
  return (
    <details class="graph-connections">
      <summary>The picture as a list ({graph.edges.length} connections)</summary>
      <ul class="graph-connections__list">
        {graph.edges.map((edge) => (
          <li key={edge.id}>
            <q>{labelOf.get(edge.from) ?? edge.from}</q> <code>{edge.type}</code>{' '}
            <q>{labelOf.get(edge.to) ?? edge.to}</q>
            <span class="muted">{details(edge)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
