import { useMemo, useRef } from 'preact/hooks';
import { type DrawnEdge, type DrawnNode, drawNeighbourhood } from './graph-drawing.js';
import type { GraphNode, Neighbourhood } from './graph-model.js';
import { NODE_KIND_NAMES, NodeShape, ROLE_NAMES } from './graph-shapes.js';
import { NODE_LABEL } from './label-placement.js';
import { useElementWidth } from './use-element-width.js';

/** What a node says to a screen reader: its kind, its text, its role, and what Enter does. */
function nodeDescription(node: GraphNode, centre: boolean): string {
  const role = node.role === undefined ? '' : `, ${ROLE_NAMES[node.role]}`;
  const action = node.kind === 'memory' ? (node.memory === undefined ? '' : '. Open') : centre ? '' : '. Centre here';
  return `${NODE_KIND_NAMES[node.kind]}: ${node.label}${role}${action}`;
}

function Edge({ drawn }: { drawn: DrawnEdge }) {
  const { edge, path, labelBox } = drawn;
  return (
    <g class={`graph-edge graph-edge--${edge.type}`} data-edge-type={edge.type}>
      <path class="graph-edge__line" d={path} />
      <text
        class="graph-edge__label"
        x={(labelBox.left + labelBox.right) / 2}
        y={(labelBox.top + labelBox.bottom) / 2}
        dy="0.35em"
      >
        {edge.type}
      </text>
    </g>
  );
}

function NodeBody({ drawn, description }: { drawn: DrawnNode; description: string }) {
  const { node, label } = drawn;
  return (
    <>
      <title>{description}</title>
      <NodeShape kind={node.kind} role={node.role} radius={drawn.radius} />
      <text class={`graph-node__label graph-node__label--${label.anchor}`}>
        {drawn.lines.map((line, index) => (
          <tspan
            key={index}
            x={(label.x - drawn.x).toFixed(1)}
            y={(label.baseline - drawn.y + index * NODE_LABEL.lineHeight).toFixed(1)}
          >
            {line}
          </tspan>
        ))}
      </text>
    </>
  );
}

/** A node: a button (Enter, Space or a click) when it opens a memory or centres the picture, else an image. */
function Node({ drawn, centre, onOpen }: { drawn: DrawnNode; centre: boolean; onOpen: (node: GraphNode) => void }) {
  const { node } = drawn;
  const description = nodeDescription(node, centre);
  const common = {
    class: `graph-node graph-node--${node.kind}${centre ? ' graph-node--centre' : ''}`,
    transform: `translate(${drawn.x.toFixed(1)} ${drawn.y.toFixed(1)})`,
    'data-node-id': node.id,
  };
  const opens = node.kind === 'memory' ? node.memory !== undefined : !centre;
  if (!opens) {
    // Named by its <title>; nothing to press.
    return (
      <g {...common}>
        <NodeBody drawn={drawn} description={description} />
      </g>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it takes the role and the keys.
    <g
      role="button"
      // Lower case: in SVG, Preact sets attributes as written, and only `tabindex` makes an element focusable.
      tabindex={0}
      aria-label={description}
      {...common}
      onClick={() => onOpen(node)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onOpen(node);
        }
      }}
    >
      <NodeBody drawn={drawn} description={description} />
    </g>
  );
}

/**
 * The neighbourhood as an inline SVG drawn at its real size (text stays 12 px): faint rings, the edges with their
 * type, then the nodes, each focusable; Enter or a click opens a memory or centres the picture on another node. The
 * layout follows the container's width: rings on a wide screen, rows on a phone.
 */
export function GraphPicture({
  graph,
  title,
  onOpen,
}: {
  graph: Neighbourhood;
  title: string;
  onOpen: (node: GraphNode) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const width = useElementWidth(container);
  const drawing = useMemo(() => (width === 0 ? null : drawNeighbourhood(graph, width)), [graph, width]);
  return (
    <div class="graph-picture" ref={container}>
      {drawing === null ? null : (
        <svg
          class="graph-picture__svg"
          width={drawing.width}
          height={drawing.height}
          viewBox={`0 0 ${drawing.width} ${drawing.height}`}
          aria-label={title}
          data-layout={drawing.shape}
        >
          <g transform={`translate(${drawing.offset.x.toFixed(1)} ${drawing.offset.y.toFixed(1)})`}>
            {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group is not focusable; the edges are in the list below the picture. */}
            <g aria-hidden="true">
              {drawing.radii.map((radius, index) => (
                <ellipse
                  key={index}
                  class="graph-picture__ring"
                  cx={drawing.centre.x}
                  cy={drawing.centre.y}
                  rx={radius.rx}
                  ry={radius.ry}
                />
              ))}
              {drawing.edges.map((drawn) => (
                <Edge key={drawn.edge.id} drawn={drawn} />
              ))}
            </g>
            {drawing.nodes.map((drawn) => (
              <Node key={drawn.node.id} drawn={drawn} centre={drawn.node.id === graph.centreId} onOpen={onOpen} />
            ))}
          </g>
        </svg>
      )}
    </div>
  );
}
