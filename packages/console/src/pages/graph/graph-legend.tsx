import type { GraphNode, MemoryRole, Neighbourhood } from './graph-model.js';
import { NODE_KIND_NAMES, NodeShape, ROLE_NAMES } from './graph-shapes.js';

/** What each edge type in a picture means (the contract's names; two are the console's own). */
const EDGE_MEANINGS: Readonly<Record<string, string>> = {
  has_topic: 'memory has the tag',
  in_category: 'memory is in the category',
  mentions: 'memory names the entity',
  contradicts: 'the two memories disagree',
  similar_to: 'nearly the same text',
  supersedes: 'replaces the older memory',
  caused_by: 'metadata.causedBy',
  depends_on: 'metadata.dependsOn',
  in_repo: 'memory is in the project',
  by_user: 'memory belongs to the user',
  retrieved: 'the search found it (not a graph edge)',
  path: 'a 2-hop path whose middle memory was not returned',
};

function Swatch({ kind, role }: { kind: GraphNode['kind']; role?: MemoryRole }) {
  return (
    <svg class="graph-legend__swatch" width="26" height="26" viewBox="-13 -13 26 26" aria-hidden="true">
      <NodeShape kind={kind} role={role} radius={kind === 'memory' ? 8 : 8.5} />
    </svg>
  );
}

/** The key to the picture: the node kinds and memory roles it shows, and its edge types with what they mean. */
export function GraphLegend({ graph }: { graph: Neighbourhood }) {
  const kinds = [...new Set(graph.nodes.map((node) => node.kind))].filter((kind) => kind !== 'memory');
  const roles = (Object.keys(ROLE_NAMES) as MemoryRole[]).filter((role) =>
    graph.nodes.some((node) => node.role === role),
  );
  const edgeTypes = [...new Set(graph.edges.map((edge) => edge.type))].sort();
  return (
    <section class="graph-legend" aria-label="Legend">
      <h3 class="graph-legend__title">Nodes</h3>
      <ul class="graph-legend__list">
        {roles.map((role) => (
          <li key={role} class="graph-legend__item">
            <Swatch kind="memory" role={role} />
            <span>Memory: {ROLE_NAMES[role]}</span>
          </li>
        ))}
        {kinds.map((kind) => (
          <li key={kind} class="graph-legend__item">
            <Swatch kind={kind} />
            <span>{NODE_KIND_NAMES[kind]}</span>
          </li>
        ))}
      </ul>
      <h3 class="graph-legend__title">Edges</h3>
      <ul class="graph-legend__list">
        {edgeTypes.map((type) => (
          <li key={type} class={`graph-legend__item graph-edge graph-edge--${type}`}>
            <svg class="graph-legend__swatch" width="30" height="12" viewBox="0 0 30 12" aria-hidden="true">
              <path class="graph-edge__line" d="M1,6 L29,6" />
            </svg>
            <span>
              <code>{type}</code> <span class="muted">{EDGE_MEANINGS[type] ?? ''}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
