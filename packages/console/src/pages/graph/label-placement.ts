import { textWidth } from '../../components/text-width.js';

/** An axis-aligned rectangle in picture pixels. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Where a node's label goes, relative to the node. */
export type LabelSide = 'below' | 'right' | 'left' | 'above';

/** A node's label, placed: its box, and how the SVG text is anchored in it. */
export interface PlacedLabel {
  side: LabelSide;
  box: Box;
  anchor: 'start' | 'middle' | 'end';
  /** The x of every line and the baseline of the first one. */
  x: number;
  baseline: number;
}

/** A straight edge between two points. */
export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Pixel metrics of the 12 px node labels and 11 px edge labels; widths come from `textWidth`. */
export const NODE_LABEL = { size: 12, lineHeight: 14, ascent: 11 } as const;
const EDGE_LABEL = { size: 11, height: 13 } as const;
const GAP = 4;

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** Whether a segment passes through a box (Liang-Barsky clipping). */
function crosses(segment: Segment, box: Box): boolean {
  const dx = segment.x2 - segment.x1;
  const dy = segment.y2 - segment.y1;
  let low = 0;
  let high = 1;
  const checks: Array<[number, number]> = [
    [-dx, segment.x1 - box.left],
    [dx, box.right - segment.x1],
    [-dy, segment.y1 - box.top],
    [dy, box.bottom - segment.y1],
  ];
  for (const [p, q] of checks) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) low = Math.max(low, t);
    else high = Math.min(high, t);
    if (low > high) return false;
  }
  return true;
}

/** The label box of a node at (x, y) with shape radius `radius` on one side (`bold`: the centre's label). */
export function labelAt(
  x: number,
  y: number,
  radius: number,
  lines: readonly string[],
  side: LabelSide,
  bold = false,
): PlacedLabel {
  const width = Math.max(...lines.map((line) => textWidth(line, { size: NODE_LABEL.size, bold })));
  const height = lines.length * NODE_LABEL.lineHeight;
  const place = (anchor: PlacedLabel['anchor'], left: number, top: number): PlacedLabel => ({
    side,
    anchor,
    box: { left, top, right: left + width, bottom: top + height },
    x: anchor === 'start' ? left : anchor === 'end' ? left + width : left + width / 2,
    baseline: top + NODE_LABEL.ascent,
  });
  switch (side) {
    case 'below':
      return place('middle', x - width / 2, y + radius + GAP);
    case 'above':
      return place('middle', x - width / 2, y - radius - GAP - height);
    case 'right':
      return place('start', x + radius + GAP + 2, y - height / 2);
    case 'left':
      return place('end', x - radius - GAP - 2 - width, y - height / 2);
  }
}

/**
 * Picks the side of the label that crosses the fewest edges and overlaps no label or node placed before it (the
 * first of `sides` wins a tie). Greedy, in the order given: the centre first, so it gets the best place.
 */
export function chooseLabel(
  candidates: readonly PlacedLabel[],
  segments: readonly Segment[],
  taken: readonly Box[],
): PlacedLabel {
  let best = candidates[0]!;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const crossings = segments.filter((segment) => crosses(segment, candidate.box)).length;
    const collisions = taken.filter((box) => overlaps(box, candidate.box)).length;
    const cost = crossings + 10 * collisions;
    if (cost < bestCost) {
      best = candidate;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * Where an edge's label sits: the point along the edge nearest its middle whose label box overlaps nothing taken
 * (nodes, their labels, other edge labels); the middle when every point overlaps something.
 */
export function edgeLabelBox(segment: Segment, text: string, taken: readonly Box[]): Box {
  const width = textWidth(text, { size: EDGE_LABEL.size }) + 4;
  const boxAt = (t: number): Box => {
    const x = segment.x1 + (segment.x2 - segment.x1) * t;
    const y = segment.y1 + (segment.y2 - segment.y1) * t;
    return {
      left: x - width / 2,
      top: y - EDGE_LABEL.height / 2,
      right: x + width / 2,
      bottom: y + EDGE_LABEL.height / 2,
    };
  };
  for (const t of [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82]) {
    const box = boxAt(t);
    if (!taken.some((other) => overlaps(other, box))) return box;
  }
  return boxAt(0.5);
}
