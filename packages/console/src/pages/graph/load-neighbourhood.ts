import { type Memory, type MemoryClient, NotFoundError } from '@memory-service/client';
import { type ContextTrace, LIMITS } from '@memory-service/contract';
import { buildNeighbourhood } from './build-neighbourhood.js';
import type { GraphFocus, Neighbourhood } from './graph-model.js';
import type { GraphTarget } from './graph-target.js';

/** How far the picture reaches: the most `context/get` expands, the memories it returns, the tag neighbours listed. */
export const PICTURE_REQUEST = {
  graphDepth: LIMITS.graphDepth.max,
  limit: 10,
  graphLimit: 8,
  taggedLimit: 20,
} as const;

/** A loaded picture, or why there is none. */
export type LoadedNeighbourhood =
  | { found: true; focus: GraphFocus; graph: Neighbourhood; trace: ContextTrace }
  | { found: false; id: string };

/** The memory of an id in the scope (memories/{id}, whatever its age); undefined when the scope has none. */
async function findMemory(client: MemoryClient, id: string, signal: AbortSignal): Promise<Memory | undefined> {
  try {
    return (await client.memories.get(id, {}, { signal })).memory;
  } catch (error) {
    if (NotFoundError.isInstance(error)) return undefined;
    throw error;
  }
}

/**
 * Loads what the picture is built from: `context/get` for the focus's text (hybrid, graph depth 2, no rules or skill
 * files) and the memories sharing its tags (`memories/list`), then builds the neighbourhood.
 */
export async function loadNeighbourhood(
  client: MemoryClient,
  target: GraphTarget,
  signal: AbortSignal,
): Promise<LoadedNeighbourhood> {
  let focus: GraphFocus;
  if (target.kind === 'memory') {
    const memory = await findMemory(client, target.id, signal);
    if (memory === undefined) return { found: false, id: target.id };
    focus = { kind: 'memory', memory };
  } else {
    focus = { kind: 'node', label: target.label, nodeKind: target.nodeKind };
  }
  const text = focus.kind === 'memory' ? focus.memory.content : focus.label;
  const tags =
    focus.kind === 'memory'
      ? focus.memory.tags
      : focus.nodeKind === null || focus.nodeKind === 'topic'
        ? [focus.label]
        : [];
  const [context, tagged] = await Promise.all([
    client.context.get(
      {
        query: text.slice(0, LIMITS.query.max),
        strategy: 'hybrid',
        graphDepth: PICTURE_REQUEST.graphDepth,
        graphLimit: PICTURE_REQUEST.graphLimit,
        limit: PICTURE_REQUEST.limit,
        mode: 'all',
        includeRules: false,
        includeSkillFiles: false,
      },
      { signal },
    ),
    tags.length === 0
      ? Promise.resolve({ memories: [] as Memory[] })
      : client.memories.list({ tags: tags.join(','), limit: PICTURE_REQUEST.taggedLimit }, { signal }),
  ]);
  const graph = buildNeighbourhood({
    focus,
    memories: context.memories,
    conflicts: context.conflicts ?? [],
    tagged: tagged.memories,
  });
  return { found: true, focus, graph, trace: context.trace };
}
