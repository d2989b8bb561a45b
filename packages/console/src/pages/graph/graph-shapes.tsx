import type { GraphNode } from './graph-model.js';

/** What each kind of node is called in labels and the legend. */
export const NODE_KIND_NAMES: Readonly<Record<GraphNode['kind'], string>> = {
  memory: 'Memory',
  topic: 'Topic (a tag)',
  category: 'Category',
  entity: 'Entity (named in the text)',
  query: 'Search text',
};

/** What each memory role means, in the legend and in what a node says to a screen reader. */
export const ROLE_NAMES = {
  focus: 'the centre',
  retrieved: 'retrieved for the centre',
  expanded: 'reached by graph expansion',
  tagged: 'shares a tag with the centre',
  unseen: 'on an expansion path, not returned',
} as const;

function hexagon(radius: number): string {
  return Array.from({ length: 6 }, (_, index) => {
    const angle = (Math.PI / 3) * index;
    return `${(radius * Math.cos(angle)).toFixed(1)},${(radius * Math.sin(angle)).toFixed(1)}`;
  }).join(' ');
}

/**
 * A node's shape around (0, 0), one per kind so the picture reads without colour too: memories are circles,
 * topics rounded squares, categories hexagons, entities diamonds, a search text a dashed circle.
 */
export function NodeShape({ kind, role, radius }: { kind: GraphNode['kind']; role?: string; radius: number }) {
  const className = `graph-node__shape graph-node__shape--${kind}${role === undefined ? '' : ` graph-node__shape--${role}`}`;
  switch (kind) {
    case 'topic':
      return (
        <rect class={className} x={-radius} y={-radius} width={radius * 2} height={radius * 2} rx={radius / 2.5} />
      );
    case 'category':
      return <polygon class={className} points={hexagon(radius * 1.1)} />;
    case 'entity':
      return (
        <polygon
          class={className}
          points={`0,${-radius * 1.25} ${radius * 1.25},0 0,${radius * 1.25} ${-radius * 1.25},0`}
        />
      );
    default:
      return <circle class={className} r={radius} />;
  }
}
