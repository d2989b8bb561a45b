import type { Memory } from '@memory-service/client';
import {
  distancesFrom,
  type GraphEdge,
  type GraphNode,
  type GraphNodeKind,
  labelKey,
  type MemoryRole,
  type Neighbourhood,
  type NeighbourhoodInput,
} from './graph-model.js';

/** Memory-to-memory edge types: on an expansion path, `linkedViaNode` is then a memory id. */
const MEMORY_EDGE_TYPES: ReadonlySet<string> = new Set([
  'similar_to',
  'supersedes',
  'contradicts',
  'caused_by',
  'depends_on',
]);

/** The kind of the node a memory-to-node edge type leads to. */
const NODE_KIND_OF_EDGE: Readonly<Record<string, 'topic' | 'category' | 'entity'>> = {
  has_topic: 'topic',
  in_category: 'category',
  mentions: 'entity',
};

function pick({ score, source, graph }: NonNullable<GraphNode['memory']>) {
  return { score, source, ...(graph === undefined ? {} : { graph }) };
}

function memoryNodeId(id: string): string {
  return `memory:${id}`;
}

function tagKey(tag: string): string {
  return labelKey(tag.replace(/^#/, ''));
}

interface RecordLink {
  nodeId: string;
  kind: 'topic' | 'category';
  label: string;
  type: string;
}

/** The topic and category nodes a memory links to, as the server derives them from its tags and category. */
function recordLinks(memory: Memory): RecordLink[] {
  const links: RecordLink[] = memory.tags
    .filter((tag) => tagKey(tag) !== '')
    .map((tag) => ({ nodeId: `topic:${tagKey(tag)}`, kind: 'topic', label: tag, type: 'has_topic' }));
  if (memory.category !== null && labelKey(memory.category) !== '') {
    const key = labelKey(memory.category);
    links.push({ nodeId: `category:${key}`, kind: 'category', label: memory.category, type: 'in_category' });
  }
  return links;
}

function centreKind(input: NeighbourhoodInput, key: string): GraphNodeKind {
  if (input.focus.kind !== 'node') return 'memory';
  if (input.focus.nodeKind !== null) return input.focus.nodeKind;
  const all = [...input.memories, ...input.tagged];
  if (all.some((memory) => memory.tags.some((tag) => tagKey(tag) === key))) return 'topic';
  if (all.some((memory) => memory.category !== null && labelKey(memory.category) === key)) return 'category';
  const path = input.memories.find((memory) => memory.graph && labelKey(memory.graph.linkedViaNode) === key);
  return (path?.graph && NODE_KIND_OF_EDGE[path.graph.edgeType]) ?? 'query';
}

/**
 * Builds the picture of a neighbourhood from what the API exposes (it has no neighbourhood route): the memories
 * `context/get` retrieved and expanded for the focus, their expansion paths (via node, edge type, hop, seed), the
 * `contradicts` edges among them, the memories sharing the focus's tags, and the topic and category nodes the server
 * derives from tags and categories (shown when they link two drawn memories or the focus). Repo and user nodes are
 * left out: every memory of a scope shares them, and expansion does not walk them.
 */
export function buildNeighbourhood(input: NeighbourhoodInput): Neighbourhood {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const addEdge = (edge: Omit<GraphEdge, 'id'>) => {
    if (edge.from === edge.to) return;
    const id = `${[edge.from, edge.to].sort().join('|')}|${edge.type}`;
    if (!edges.has(id)) edges.set(id, { id, ...edge });
  };
  const addMemory = (memory: GraphNode['memory'] & object, role: MemoryRole) => {
    const id = memoryNodeId(memory.id);
    const existing = nodes.get(id);
    // The first role stays (the focus is also retrieved); a retrieved copy adds its score and source.
    nodes.set(id, {
      id,
      kind: 'memory',
      label: memory.content,
      memory: { ...memory, ...existing?.memory, ...(memory.score === undefined ? {} : pick(memory)) },
      role: existing?.role ?? role,
    });
  };

  let centreId: string;
  if (input.focus.kind === 'memory') {
    centreId = memoryNodeId(input.focus.memory.id);
    addMemory(input.focus.memory, 'focus');
  } else {
    const key = labelKey(input.focus.label);
    const kind = centreKind(input, key);
    centreId = `${kind}:${key}`;
    nodes.set(centreId, { id: centreId, kind, label: input.focus.label });
  }
  for (const memory of input.memories)
    addMemory(memory, memory.source === 'graph_expansion' ? 'expanded' : 'retrieved');
  for (const memory of input.tagged) addMemory(memory, 'tagged');

  // Expansion paths: seed -> via node -> reached memory (or along a memory-to-memory edge).
  const pathNodes = new Set<string>();
  const pendingHops: Array<{ seedId: string; nodeId: string }> = [];
  for (const memory of input.memories) {
    if (memory.graph === undefined) continue;
    const { linkedViaNode, edgeType, hopCount, confidence, seedMemoryId } = memory.graph;
    const target = memoryNodeId(memory.id);
    const seed = memoryNodeId(seedMemoryId);
    if (!nodes.has(seed))
      nodes.set(seed, { id: seed, kind: 'memory', label: `memory ${seedMemoryId}`, role: 'unseen' });
    if (MEMORY_EDGE_TYPES.has(edgeType)) {
      const via = memoryNodeId(linkedViaNode);
      if (!nodes.has(via)) {
        nodes.set(via, { id: via, kind: 'memory', label: `memory ${linkedViaNode}`, role: 'unseen' });
      }
      addEdge({ from: via, to: target, type: edgeType, confidence, hop: hopCount });
      continue;
    }
    const kind = NODE_KIND_OF_EDGE[edgeType] ?? 'entity';
    const nodeId = `${kind}:${labelKey(linkedViaNode)}`;
    if (!nodes.has(nodeId)) nodes.set(nodeId, { id: nodeId, kind, label: linkedViaNode });
    pathNodes.add(nodeId);
    addEdge({ from: target, to: nodeId, type: edgeType, confidence, hop: hopCount });
    if (hopCount === 1) addEdge({ from: seed, to: nodeId, type: edgeType });
    else pendingHops.push({ seedId: seed, nodeId });
  }

  // The links the server derives from tags and categories, for the nodes that connect something.
  const members = new Map<string, Array<RecordLink & { memoryId: string }>>();
  for (const node of nodes.values()) {
    if (node.memory === undefined) continue;
    for (const link of recordLinks(node.memory)) {
      members.set(link.nodeId, [...(members.get(link.nodeId) ?? []), { memoryId: node.id, ...link }]);
    }
  }
  for (const [nodeId, links] of members) {
    const shown = links.length > 1 || nodeId === centreId || pathNodes.has(nodeId) || links[0]!.memoryId === centreId;
    if (!shown) continue;
    if (!nodes.has(nodeId)) nodes.set(nodeId, { id: nodeId, kind: links[0]!.kind, label: links[0]!.label });
    for (const link of links) addEdge({ from: link.memoryId, to: nodeId, type: link.type });
  }
  // A 2-hop path through a node no drawn memory links to: its middle memory is not in the answer.
  for (const { seedId, nodeId } of pendingHops) {
    if ([...edges.values()].filter((edge) => edge.from === nodeId || edge.to === nodeId).length < 2) {
      addEdge({ from: seedId, to: nodeId, type: 'path', note: 'through a memory not in the answer' });
    }
  }

  for (const conflict of input.conflicts) {
    addEdge({
      from: memoryNodeId(conflict.memoryAId),
      to: memoryNodeId(conflict.memoryBId),
      type: conflict.edgeType,
      confidence: conflict.confidence,
      note: conflict.explanation,
    });
  }

  // What the query found but no drawn edge reaches: linked to the centre by retrieval (not a graph edge).
  for (const memory of input.memories) {
    const id = memoryNodeId(memory.id);
    if (distancesFrom(centreId, [...edges.values()]).has(id)) continue;
    addEdge({ from: centreId, to: id, type: 'retrieved', note: `${memory.source}, score ${memory.score.toFixed(4)}` });
  }
  return { centreId, nodes: [...nodes.values()], edges: [...edges.values()] };
}
