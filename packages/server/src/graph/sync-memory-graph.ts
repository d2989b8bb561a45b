import type { InStatement } from '@libsql/client';
import type { Database } from '../store/database.js';
import { type MemoryRow, toMemory } from '../store/memory-rows.js';
import { recordGraphError } from './graph-errors.js';
import { memoryNodeId, type NodeLink, nodeLinks } from './graph-model.js';
import { type MemoryEdge, metadataEdges, sameSubjectEdges, similarMemories, subjectGroup } from './related-memories.js';

/** How a sync went: `partial` when links were written but memory-to-memory relations could not be computed. */
export type GraphSyncOutcome = 'synced' | 'partial' | 'failed';

/** Statements that drop a memory's extracted graph: its links and the extraction edges it owns. */
export function dropMemoryGraphStatements(memoryId: string): InStatement[] {
  return [
    {
      // Shared nodes only this memory used go with its links (an edit that drops a name drops the name).
      sql: `DELETE FROM graph_nodes WHERE id IN (SELECT node_id FROM graph_memory_links WHERE memory_id = ?)
              AND NOT EXISTS (SELECT 1 FROM graph_memory_links l WHERE l.node_id = graph_nodes.id AND l.memory_id <> ?)`,
      args: [memoryId, memoryId],
    },
    { sql: 'DELETE FROM graph_memory_links WHERE memory_id = ?', args: [memoryId] },
    {
      // Symmetric relations are recomputed from this memory; metadata relations other memories name stay theirs.
      sql: `DELETE FROM graph_edges WHERE origin = 'extraction'
              AND (source_memory_id = ? OR (target_memory_id = ? AND edge_type IN ('similar_to', 'contradicts')))`,
      args: [memoryId, memoryId],
    },
    { sql: 'DELETE FROM memory_subjects WHERE memory_id = ?', args: [memoryId] },
  ];
}

function writeStatements(
  row: MemoryRow,
  links: NodeLink[],
  edges: MemoryEdge[],
  group: { key: string; source: string } | null,
  timestamp: string,
) {
  const statements: InStatement[] = [
    ...dropMemoryGraphStatements(row.id),
    {
      sql: `INSERT OR IGNORE INTO graph_nodes (id, type, label, created_at) VALUES (?, 'memory', ?, ?)`,
      args: [memoryNodeId(row.id), row.id, timestamp],
    },
  ];
  if (links.length > 0) {
    statements.push({
      sql: `INSERT OR IGNORE INTO graph_nodes (id, type, label, created_at) VALUES ${links.map(() => '(?, ?, ?, ?)').join(', ')}`,
      args: links.flatMap((link) => [link.nodeId, link.nodeType, link.label, timestamp]),
    });
    statements.push({
      sql: `INSERT INTO graph_memory_links (memory_id, node_id, edge_type, confidence, created_at) VALUES ${links.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      args: links.flatMap((link) => [row.id, link.nodeId, link.edgeType, link.confidence, timestamp]),
    });
  }
  if (edges.length > 0) {
    statements.push({
      sql: `INSERT OR REPLACE INTO graph_edges (source_memory_id, target_memory_id, edge_type, confidence, origin, detail, created_at)
            VALUES ${edges.map(() => "(?, ?, ?, ?, 'extraction', ?, ?)").join(', ')}`,
      args: edges.flatMap((edge) => [
        edge.sourceId,
        edge.targetId,
        edge.edgeType,
        edge.confidence,
        JSON.stringify(edge.detail),
        timestamp,
      ]),
    });
  }
  if (group !== null) {
    statements.push({
      sql: 'INSERT INTO memory_subjects (memory_id, group_key, key_source) VALUES (?, ?, ?)',
      args: [row.id, group.key, group.source],
    });
  }
  return statements;
}

/** Memory-to-memory relations of a memory (a failure here degrades the sync to links only). */
async function relationsOf(database: Database, row: MemoryRow, groupKey: string | null): Promise<MemoryEdge[]> {
  const metadata = toMemory(row).metadata;
  const [similar, named, sameSubject] = [
    await similarMemories(database, row),
    await metadataEdges(database, row, metadata),
    groupKey === null ? [] : await sameSubjectEdges(database, row, groupKey),
  ];
  const byKey = new Map<string, MemoryEdge>();
  // Later lists win: a same-subject verdict (duplicate or contradiction) overrides a plain similarity.
  for (const edge of [...similar, ...named, ...sameSubject]) byKey.set(`${edge.targetId}|${edge.edgeType}`, edge);
  const contradicted = new Set(
    sameSubject.filter((edge) => edge.edgeType === 'contradicts').map((edge) => edge.targetId),
  );
  return [...byKey.values()].filter((edge) => !(edge.edgeType === 'similar_to' && contradicted.has(edge.targetId)));
}

/**
 * (Re-)extracts a memory's graph deterministically, in one transaction: its old links and extraction edges are
 * dropped, then its node links and memory-to-memory edges written. Never throws: the memory is already stored,
 * the graph is derived from it; a failure is logged by the caller and recorded with a code for observability.
 */
export async function syncMemoryGraph(database: Database, row: MemoryRow, now: Date): Promise<GraphSyncOutcome> {
  const timestamp = now.toISOString();
  const memory = toMemory(row);
  const { groupKey, subject } = subjectGroup(row);
  const group = subject.key === '' ? null : { key: groupKey, source: subject.source };
  let edges: MemoryEdge[] = [];
  let outcome: GraphSyncOutcome = 'synced';
  try {
    edges = await relationsOf(database, row, group?.key ?? null);
  } catch {
    outcome = 'partial';
  }
  try {
    await database.transaction(writeStatements(row, nodeLinks(memory), edges, group, timestamp));
  } catch {
    await recordGraphError(
      database,
      'GRAPH_RELATIONSHIP_SYNC_FAILED',
      'Graph extraction could not be written',
      row.id,
      now,
    );
    return 'failed';
  }
  if (outcome === 'partial') {
    await recordGraphError(
      database,
      'GRAPH_RELATIONSHIP_PARTIAL_DEGRADE',
      'Memory links were written but memory-to-memory relations could not be computed',
      row.id,
      now,
    );
  }
  return outcome;
}
