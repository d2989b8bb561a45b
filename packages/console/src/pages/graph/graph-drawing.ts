import { type PlacedNode, positionNodes, ROWS_BELOW_WIDTH } from './graph-layout.js';
import type { GraphEdge, GraphNode, Neighbourhood } from './graph-model.js';
import {
  type Box,
  chooseLabel,
  edgeLabelBox,
  type LabelSide,
  labelAt,
  type PlacedLabel,
  type Segment,
} from './label-placement.js';

/** A node ready to draw: its place, shape radius and label. */
export interface DrawnNode extends PlacedNode {
  radius: number;
  label: PlacedLabel;
}

/** An edge ready to draw: its path and where its type label sits. */
export interface DrawnEdge {
  edge: GraphEdge;
  path: string;
  labelBox: Box;
}

/** The whole picture in pixels, cropped to what is drawn (`offset` moves the layout's origin into it). */
export interface GraphDrawing {
  width: number;
  height: number;
  shape: 'radial' | 'rows';
  offset: { x: number; y: number };
  centre: { x: number; y: number };
  radii: Array<{ rx: number; ry: number }>;
  nodes: DrawnNode[];
  edges: DrawnEdge[];
}

const MARGIN = 12;

/** The radius of a node's shape: the centre is drawn larger. */
export function nodeRadius(node: GraphNode, centre: boolean): number {
  return centre ? 15 : node.kind === 'memory' ? 10 : 11;
}

function bounds(boxes: readonly Box[]): Box {
  return {
    left: Math.min(...boxes.map((box) => box.left)),
    top: Math.min(...boxes.map((box) => box.top)),
    right: Math.max(...boxes.map((box) => box.right)),
    bottom: Math.max(...boxes.map((box) => box.bottom)),
  };
}

/**
 * Lays a neighbourhood out for a container `width` pixels wide and places every label: each node's on the side
 * that crosses the fewest edges and overlaps nothing placed before (the centre first), each edge's type along the
 * edge where it overlaps no node or label. Drawn 1:1: the picture is as wide as it needs (a phone gets rows that
 * fit its width); a wider one scrolls in its frame rather than shrinking its text.
 */
export function drawNeighbourhood(graph: Neighbourhood, width: number): GraphDrawing {
  // Rings are stretched to the width before their labels are placed; labels that stick out take it back.
  let drawing = drawFor(graph, width, width - 2 * MARGIN);
  for (let attempt = 0; attempt < 3 && drawing.shape === 'radial' && drawing.width > width; attempt += 1) {
    drawing = drawFor(graph, width, width - 2 * MARGIN - (drawing.width - width) * (attempt + 1));
  }
  return drawing;
}

function drawFor(graph: Neighbourhood, width: number, layoutWidth: number): GraphDrawing {
  const positions = positionNodes(graph, layoutWidth, width < ROWS_BELOW_WIDTH ? 'rows' : 'radial');
  const byId = new Map(positions.nodes.map((placed) => [placed.node.id, placed]));
  // Edges between the same two nodes bow apart: the second and later ones are curves.
  const pairs = new Map<string, number>();
  const routes = graph.edges.flatMap((edge) => {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (from === undefined || to === undefined) return [];
    const pair = [edge.from, edge.to].sort().join('|');
    const bend = pairs.get(pair) ?? 0;
    pairs.set(pair, bend + 1);
    const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
    const control = {
      x: (from.x + to.x) / 2 - ((to.y - from.y) / length) * bend * 30,
      y: (from.y + to.y) / 2 + ((to.x - from.x) / length) * bend * 30,
    };
    const middle = { x: (from.x + 2 * control.x + to.x) / 4, y: (from.y + 2 * control.y + to.y) / 4 };
    const segment: Segment =
      bend === 0
        ? { x1: from.x, y1: from.y, x2: to.x, y2: to.y }
        : { x1: middle.x - 1, y1: middle.y, x2: middle.x + 1, y2: middle.y };
    return [{ edge, segment, path: `M${from.x},${from.y} Q${control.x},${control.y} ${to.x},${to.y}` }];
  });
  const segments = routes.map((route) => route.segment);

  const sides: LabelSide[] = positions.shape === 'rows' ? ['below', 'above'] : ['below', 'right', 'left', 'above'];
  const radiusOf = (placed: PlacedNode) => nodeRadius(placed.node, placed.node.id === graph.centreId);
  const taken: Box[] = positions.nodes.map((placed) => {
    const radius = radiusOf(placed) + 2;
    return { left: placed.x - radius, top: placed.y - radius, right: placed.x + radius, bottom: placed.y + radius };
  });
  const nodes: DrawnNode[] = positions.nodes.map((placed) => {
    const radius = radiusOf(placed);
    const centre = placed.node.id === graph.centreId;
    const candidates = sides.map((side) => labelAt(placed.x, placed.y, radius, placed.lines, side, centre));
    const label = chooseLabel(candidates, segments, taken);
    taken.push(label.box);
    return { ...placed, radius, label };
  });
  const edges: DrawnEdge[] = routes.map(({ edge, segment, path }) => {
    const labelBox = edgeLabelBox(segment, edge.type, taken);
    taken.push(labelBox);
    return { edge, path, labelBox };
  });

  const drawn = bounds(taken);
  // Rows keep the container's width (their x already spans it); rings are as wide as they need, centred by CSS.
  const rows = positions.shape === 'rows';
  const offset = { x: rows ? MARGIN + Math.max(0, -drawn.left) : MARGIN - drawn.left, y: MARGIN - drawn.top };
  return {
    width: rows ? Math.max(width, drawn.right + offset.x + MARGIN) : drawn.right - drawn.left + 2 * MARGIN,
    height: drawn.bottom - drawn.top + 2 * MARGIN,
    shape: positions.shape,
    offset,
    centre: positions.centre,
    radii: positions.radii,
    nodes,
    edges,
  };
}
