import type { GraphNode, Neighbourhood } from './graph-model.js';
import { neighboursOf, orderByParents, ringsOf } from './graph-rings.js';

/** A node with its place in the picture and its label cut into lines. */
export interface PlacedNode {
  node: GraphNode;
  x: number;
  y: number;
  /** Hops from the centre. */
  ring: number;
  lines: string[];
}

/** Where the nodes go, before the labels: the rings (or rows) and, for rings, their radii. */
export interface NodePositions {
  shape: 'radial' | 'rows';
  centre: { x: number; y: number };
  /** The rings' radii (radial only), drawn as faint guides. */
  radii: Array<{ rx: number; ry: number }>;
  nodes: PlacedNode[];
}

/** Below this width the rings become rows: a radial picture would need text too small to read. */
export const ROWS_BELOW_WIDTH = 560;
const CHARACTER_WIDTH = 6.6;

/** Cuts a label into at most `maxLines` lines of `width` characters, on word boundaries, with … when cut short. */
export function wrapLabel(text: string, width: number, maxLines = 2): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const word of words) {
    const next = line === '' ? word : `${line} ${word}`;
    if (next.length <= width) {
      line = next;
      used += 1;
      continue;
    }
    if (line !== '') lines.push(line);
    if (lines.length === maxLines) break;
    line = word.length > width ? `${word.slice(0, width - 1)}…` : word;
    used += 1;
  }
  if (lines.length < maxLines && line !== '') lines.push(line);
  if (used < words.length) {
    const last = lines.at(-1) ?? '';
    lines[Math.max(0, lines.length - 1)] = `${last.length >= width ? last.slice(0, width - 1) : last}…`;
  }
  return lines;
}

function circularMean(angles: number[]): number {
  const x = angles.reduce((sum, angle) => sum + Math.cos(angle), 0);
  const y = angles.reduce((sum, angle) => sum + Math.sin(angle), 0);
  return Math.atan2(y, x);
}

/** Angles for a ring: each node near its wanted angle and at least `gap` from the next, else spread evenly. */
function spreadAngles(wanted: Array<number | undefined>, gap: number): number[] {
  const count = wanted.length;
  const even = wanted.map((_, index) => (index * 2 * Math.PI) / count);
  if (count * gap >= 2 * Math.PI || wanted.some((angle) => angle === undefined)) return even;
  const angles: number[] = [];
  for (const angle of wanted as number[]) {
    angles.push(angles.length === 0 ? angle : Math.max(angle, angles.at(-1)! + gap));
  }
  // Centre the pushed run on what was wanted, then check that it does not wrap onto itself.
  const shift = angles.reduce((sum, angle, index) => sum + angle - (wanted[index] as number), 0) / count;
  const placed = angles.map((angle) => angle - shift);
  return placed.at(-1)! - placed[0]! > 2 * Math.PI - gap ? even : placed;
}

/** How many nodes further out each ring-1 node leads to (walking outwards only): its branch's size. */
function branchSizes(rings: readonly GraphNode[][], neighbours: ReadonlyMap<string, readonly string[]>) {
  const ringOf = new Map(rings.flatMap((ring, index) => ring.map((node) => [node.id, index] as const)));
  const sizes = new Map<string, number>();
  for (const start of rings[1] ?? []) {
    const seen = new Set([start.id]);
    const queue = [start.id];
    for (let index = 0; index < queue.length; index += 1) {
      const current = queue[index]!;
      for (const next of neighbours.get(current) ?? []) {
        if (seen.has(next) || (ringOf.get(next) ?? 0) <= (ringOf.get(current) ?? 0)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    sizes.set(start.id, seen.size - 1);
  }
  return sizes;
}

/**
 * Rings around the centre. Ring 1 starts at the right with its biggest branch (a screen is wider than tall), each
 * outer node sits near its neighbours one ring in, and the rings are then stretched sideways into ellipses to use
 * the width.
 */
function radial(graph: Neighbourhood, width: number): NodePositions {
  const characters = 20;
  const room = characters * CHARACTER_WIDTH + 16;
  const rings = ringsOf(graph);
  const neighbours = neighboursOf(graph);
  const ringGap = 92;
  const radii: Array<{ rx: number; ry: number }> = [];
  for (let index = 1; index < rings.length; index += 1) {
    // Room along the ring for every label: the ring's length over its nodes.
    const needed = (rings[index]!.length * room) / (2 * Math.PI);
    const ry = Math.max((radii.at(-1)?.ry ?? 0) + ringGap, needed);
    radii.push({ rx: ry, ry });
  }
  const branches = branchSizes(rings, neighbours);
  const angles = new Map<string, number>();
  const nodes: PlacedNode[] = [];
  const place = (node: GraphNode, ring: number, angle: number) => {
    const radius = radii[ring - 1] ?? { rx: 0, ry: 0 };
    angles.set(node.id, angle);
    const lines = wrapLabel(node.label, characters);
    nodes.push({ node, ring, x: radius.rx * Math.cos(angle), y: radius.ry * Math.sin(angle), lines });
  };
  place(rings[0]![0]!, 0, 0);
  rings.forEach((ring, index) => {
    if (index === 0) return;
    const ordered =
      index === 1
        ? [...ring]
            .sort((left, right) => (branches.get(right.id) ?? 0) - (branches.get(left.id) ?? 0))
            .map((node) => ({ node, desired: undefined }))
        : orderByParents(ring, neighbours, (id) => angles.get(id), circularMean);
    const spread = spreadAngles(
      ordered.map((entry) => entry.desired),
      room / radii[index - 1]!.ry,
    );
    ordered.forEach((entry, position) => {
      place(entry.node, index, spread[position]!);
    });
  });
  // Stretch sideways as far as the width allows (at most 1.8 times): wide labels need the room more than height.
  const xs = nodes.map((placed) => placed.x);
  const extent = Math.max(1, Math.max(...xs) - Math.min(...xs));
  const stretch = Math.max(1, Math.min(1.8, (width - room) / extent));
  for (const placed of nodes) placed.x *= stretch;
  return {
    shape: 'radial',
    centre: { x: 0, y: 0 },
    radii: radii.map(({ rx, ry }) => ({ rx: rx * stretch, ry })),
    nodes,
  };
}

/** One row per hop from the top, wrapped to the width: for phones. */
function rows(graph: Neighbourhood, width: number): NodePositions {
  const characters = 14;
  const cell = characters * CHARACTER_WIDTH + 12;
  const perRow = Math.max(1, Math.floor(width / cell));
  const rowHeight = 104;
  const neighbours = neighboursOf(graph);
  const xs = new Map<string, number>();
  const nodes: PlacedNode[] = [];
  let y = 0;
  ringsOf(graph).forEach((ring, index) => {
    const ordered = orderByParents(ring, neighbours, (id) => xs.get(id));
    for (let start = 0; start < ordered.length; start += perRow) {
      const row = ordered.slice(start, start + perRow);
      row.forEach((entry, position) => {
        const x = ((position + 0.5) * width) / row.length;
        xs.set(entry.node.id, x);
        nodes.push({ node: entry.node, ring: index, x, y, lines: wrapLabel(entry.node.label, characters, 3) });
      });
      y += rowHeight;
    }
  });
  return { shape: 'rows', centre: { x: nodes[0]?.x ?? width / 2, y: 0 }, radii: [], nodes };
}

/**
 * A deterministic layout of a neighbourhood for a picture about `width` pixels wide: radial by hop count (the
 * centre in the middle, ring n for the nodes n hops away, on ellipses wider than tall), or one row per hop from the
 * top, so labels stay at a readable size on a phone.
 */
export function positionNodes(graph: Neighbourhood, width: number, shape: NodePositions['shape']): NodePositions {
  return shape === 'rows' ? rows(graph, width) : radial(graph, width);
}
