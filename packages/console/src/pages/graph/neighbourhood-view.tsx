import { useId } from 'preact/hooks';
import { GraphConnections } from './graph-connections.js';
import { GraphLegend } from './graph-legend.js';
import type { GraphNode } from './graph-model.js';
import { GraphPicture } from './graph-picture.js';
import type { LoadedNeighbourhood } from './load-neighbourhood.js';

const NOT_SERVED = {
  off: 'The rollout is off: graph expansion does not run, so the picture shows no expanded memories, only the links stored on the memories (tags, categories) and contradictions.',
  shadow:
    'The rollout is shadow: expansion runs but is not served, so the picture shows no expanded memories, only the links stored on the memories (tags, categories) and contradictions.',
} as const;

/** A loaded neighbourhood: what it is built from, the picture with its legend, and the picture as a list. */
export function NeighbourhoodView({
  loaded,
  onOpen,
}: {
  loaded: Extract<LoadedNeighbourhood, { found: true }>;
  onOpen: (node: GraphNode) => void;
}) {
  const titleId = useId();
  const { focus, graph, trace } = loaded;
  const name = focus.kind === 'memory' ? focus.memory.content : focus.label;
  const expanded = graph.nodes.filter((node) => node.role === 'expanded').length;
  return (
    <div class="neighbourhood">
      <h2 id={titleId} class="neighbourhood__title">
        Around <q>{name}</q>
      </h2>
      <p class="neighbourhood__summary small">
        {graph.nodes.length} nodes, {graph.edges.length} edges · {expanded} reached by graph expansion · rollout{' '}
        <strong>{trace.rolloutMode}</strong>, strategy applied <strong>{trace.retrievalPolicyAppliedStrategy}</strong>
        {trace.rolloutMode === 'shadow' ? `, ${trace.graphCandidates} expansion candidates not served` : ''}
      </p>
      {trace.rolloutMode === 'canary' ? null : (
        <p class="neighbourhood__notice small">{NOT_SERVED[trace.rolloutMode]}</p>
      )}
      <div class="neighbourhood__view">
        <GraphPicture graph={graph} title={`Graph neighbourhood of ${name}`} onOpen={onOpen} />
        <GraphLegend graph={graph} />
      </div>
      <p class="muted small">
        How this is drawn: the API has no route that returns a neighbourhood, so the picture is built from context/get
        for the centre's text (hybrid, graph depth 2): the memories it retrieves and the ones graph expansion reaches,
        with their paths (via node, edge type, hop); contradicts edges from its conflicts; memories sharing a tag from
        memories/list; and the topic and category nodes the service derives from tags and categories. Repo and user
        nodes are left out: every memory of a scope shares them. Rings (rows on a narrow screen) count hops from the
        centre. Tab to a node and press Enter to open a memory or centre on a node.
      </p>
      <GraphConnections graph={graph} />
    </div>
  );
}
