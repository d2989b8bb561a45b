import type { EdgeType } from '@memory-service/contract';
import { extractEntities } from './entities.js';

/** A node a memory links to, with the link's edge type and confidence. */
export interface NodeLink {
  nodeId: string;
  nodeType: 'topic' | 'category' | 'repo' | 'user' | 'entity';
  label: string;
  edgeType: EdgeType;
  confidence: number;
}

/** What extraction reads of a memory. */
export interface ExtractableMemory {
  id: string;
  content: string;
  tags: readonly string[];
  paths: readonly string[];
  category: string | null;
  userId: string | null;
  projectId: string | null;
}

/**
 * Weight of each edge type in expansion (score = weight x confidence / hops). Explicit relations between
 * memories weigh most; curated labels (tags, category) more than guessed entities; `supersedes` little, since a
 * superseded memory is never served as current truth anyway. Repo and user links are not traversed (see expand).
 */
export const EDGE_WEIGHTS: Readonly<Record<EdgeType, number>> = {
  similar_to: 0.9,
  caused_by: 0.85,
  depends_on: 0.85,
  contradicts: 0.8,
  has_topic: 0.75,
  mentions: 0.7,
  in_category: 0.6,
  supersedes: 0.3,
  in_repo: 0.2,
  by_user: 0.2,
};

/** The memory's own node id. */
export function memoryNodeId(memoryId: string): string {
  return `memory:${memoryId}`;
}

function labelKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Deterministic node links of a memory: tags as topics, category, projectId as repo, userId, extracted entities. */
export function nodeLinks(memory: ExtractableMemory): NodeLink[] {
  const links = new Map<string, NodeLink>();
  const add = (link: NodeLink) => {
    if (!links.has(link.nodeId)) links.set(link.nodeId, link);
  };
  for (const tag of memory.tags) {
    const key = labelKey(tag.replace(/^#/, ''));
    if (key !== '')
      add({ nodeId: `topic:${key}`, nodeType: 'topic', label: tag, edgeType: 'has_topic', confidence: 1 });
  }
  if (memory.category !== null && labelKey(memory.category) !== '') {
    const key = labelKey(memory.category);
    add({
      nodeId: `category:${key}`,
      nodeType: 'category',
      label: memory.category,
      edgeType: 'in_category',
      confidence: 1,
    });
  }
  if (memory.projectId !== null) {
    add({
      nodeId: `repo:${memory.projectId}`,
      nodeType: 'repo',
      label: memory.projectId,
      edgeType: 'in_repo',
      confidence: 1,
    });
  }
  if (memory.userId !== null) {
    add({
      nodeId: `user:${memory.userId}`,
      nodeType: 'user',
      label: memory.userId,
      edgeType: 'by_user',
      confidence: 1,
    });
  }
  for (const entity of extractEntities(memory.content, memory.paths)) {
    add({
      nodeId: `entity:${entity.key}`,
      nodeType: 'entity',
      label: entity.label,
      edgeType: 'mentions',
      confidence: entity.confidence,
    });
  }
  return [...links.values()];
}

/** Memory ids named by `metadata.causedBy` / `metadata.dependsOn` (a string or an array of strings). */
export function metadataRelations(
  metadata: Record<string, unknown>,
): Array<{ targetId: string; edgeType: 'caused_by' | 'depends_on' }> {
  const relations: Array<{ targetId: string; edgeType: 'caused_by' | 'depends_on' }> = [];
  const read = (value: unknown, edgeType: 'caused_by' | 'depends_on') => {
    const ids = Array.isArray(value) ? value : [value];
    for (const id of ids) {
      if (typeof id === 'string' && id.trim() !== '' && id.length <= 64)
        relations.push({ targetId: id.trim(), edgeType });
    }
  };
  read(metadata.causedBy, 'caused_by');
  read(metadata.dependsOn, 'depends_on');
  return relations.slice(0, 50);
}
