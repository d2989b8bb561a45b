import type { InStatement } from '@libsql/client';

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

/** A link from a memory to a shared node (topic, entity, category, ...), as extraction found it. */
export interface GraphLink {
  nodeId: string;
  nodeType: string;
  label: string;
  edgeType: string;
  confidence: number;
}

/** A memory-to-memory edge, as extraction found it. */
export interface GraphEdge {
  sourceId: string;
  targetId: string;
  edgeType: string;
  confidence: number;
  detail: Record<string, unknown>;
}

/** A memory's extracted graph, ready to write. */
export interface MemoryGraph {
  memoryId: string;
  /** The id of the memory's own node. */
  memoryNodeId: string;
  links: readonly GraphLink[];
  edges: readonly GraphEdge[];
  /** The memory's consolidation subject group, if it has one. */
  subject: { key: string; source: string } | null;
}

/** Statements that replace a memory's extracted graph with `graph` (its old links and edges dropped first). */
export function writeMemoryGraphStatements(graph: MemoryGraph, timestamp: string): InStatement[] {
  const { memoryId, links, edges } = graph;
  const statements: InStatement[] = [
    ...dropMemoryGraphStatements(memoryId),
    {
      sql: `INSERT OR IGNORE INTO graph_nodes (id, type, label, created_at) VALUES (?, 'memory', ?, ?)`,
      args: [graph.memoryNodeId, memoryId, timestamp],
    },
  ];
  if (links.length > 0) {
    statements.push({
      sql: `INSERT OR IGNORE INTO graph_nodes (id, type, label, created_at) VALUES ${links.map(() => '(?, ?, ?, ?)').join(', ')}`,
      args: links.flatMap((link) => [link.nodeId, link.nodeType, link.label, timestamp]),
    });
    statements.push({
      sql: `INSERT INTO graph_memory_links (memory_id, node_id, edge_type, confidence, created_at) VALUES ${links.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      args: links.flatMap((link) => [memoryId, link.nodeId, link.edgeType, link.confidence, timestamp]),
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
  if (graph.subject !== null) {
    statements.push({
      sql: 'INSERT INTO memory_subjects (memory_id, group_key, key_source) VALUES (?, ?, ?)',
      args: [memoryId, graph.subject.key, graph.subject.source],
    });
  }
  return statements;
}
