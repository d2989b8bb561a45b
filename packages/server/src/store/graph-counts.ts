import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import { visibleTo } from './scope-filter.js';

/** The tables the graph, rollout and consolidation need; `graph/status` reports schema_missing without them. */
export const GRAPH_TABLES = [
  'graph_nodes',
  'graph_memory_links',
  'graph_edges',
  'graph_errors',
  'memory_subjects',
  'graph_rollout',
  'retrieval_policy',
  'retrieval_metrics',
  'consolidation_runs',
] as const;

/** Which graph tables exist. */
export async function graphTables(database: Database): Promise<Record<string, boolean>> {
  const rows = await database.all<{ name: string }>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${GRAPH_TABLES.map(() => '?').join(', ')})`,
    [...GRAPH_TABLES],
  );
  const present = new Set(rows.map((row) => row.name));
  return Object.fromEntries(GRAPH_TABLES.map((name) => [name, present.has(name)]));
}

function tally(rows: ReadonlyArray<{ type: string; total: number }>): Record<string, number> {
  return Object.fromEntries(rows.map((row) => [row.type, Number(row.total)]));
}

/**
 * Graph counts over the memories the scope can see (live ones): nodes linked from them, their links, the edges
 * between two of them, and the most connected shared nodes.
 */
export async function graphCounts(database: Database, scope: ResolvedScope, topNodesLimit: number) {
  const visible = visibleTo(scope, 'm');
  const live = `m.deleted_at IS NULL AND ${visible.sql}`;
  const memories = await database.get<{ total: number }>(
    `SELECT COUNT(*) AS total FROM memories m WHERE ${live}`,
    visible.args,
  );
  const linkRows = await database.all<{ type: string; total: number }>(
    `SELECT l.edge_type AS type, COUNT(*) AS total FROM graph_memory_links l JOIN memories m ON m.id = l.memory_id
      WHERE ${live} GROUP BY l.edge_type`,
    visible.args,
  );
  const nodeRows = await database.all<{ type: string; total: number }>(
    `SELECT n.type AS type, COUNT(DISTINCT n.id) AS total FROM graph_nodes n
       JOIN graph_memory_links l ON l.node_id = n.id JOIN memories m ON m.id = l.memory_id
      WHERE ${live} GROUP BY n.type
     UNION ALL
     SELECT 'memory', COUNT(*) FROM graph_nodes n JOIN memories m ON n.id = 'memory:' || m.id WHERE ${live}`,
    [...visible.args, ...visible.args],
  );
  const endpoint = (alias: string) => visibleTo(scope, alias);
  const source = endpoint('a');
  const target = endpoint('b');
  const edgeRows = await database.all<{ type: string; total: number }>(
    `SELECT e.edge_type AS type, COUNT(*) AS total FROM graph_edges e
       JOIN memories a ON a.id = e.source_memory_id JOIN memories b ON b.id = e.target_memory_id
      WHERE a.deleted_at IS NULL AND b.deleted_at IS NULL AND ${source.sql} AND ${target.sql}
      GROUP BY e.edge_type`,
    [...source.args, ...target.args],
  );
  const top = await database.all<{ id: string; type: string; label: string; degree: number }>(
    `SELECT n.id, n.type, n.label, COUNT(*) AS degree FROM graph_memory_links l
       JOIN graph_nodes n ON n.id = l.node_id JOIN memories m ON m.id = l.memory_id
      WHERE ${live} GROUP BY n.id ORDER BY degree DESC, n.id LIMIT ?`,
    [...visible.args, topNodesLimit],
  );
  const memoryLinks = linkRows.reduce((sum, row) => sum + Number(row.total), 0);
  const memoryEdges = edgeRows.reduce((sum, row) => sum + Number(row.total), 0);
  const nodesByType = tally(nodeRows.filter((row) => Number(row.total) > 0));
  return {
    counts: {
      memories: Number(memories?.total ?? 0),
      nodes: Object.values(nodesByType).reduce((sum, total) => sum + total, 0),
      edges: memoryLinks + memoryEdges,
      memoryLinks,
      nodesByType,
      edgesByType: { ...tally(linkRows), ...tally(edgeRows) },
    },
    topConnectedNodes: top.map((row) => ({ id: row.id, type: row.type, label: row.label, degree: Number(row.degree) })),
  };
}
