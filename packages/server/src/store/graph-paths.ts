import type { InValue } from '@libsql/client';
import type { EdgeType, ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import { allOf, type Condition, visibleTo } from './scope-filter.js';

/** One step from a memory to a neighbour: through a shared node or along a memory-to-memory edge. */
export interface PathStep {
  fromId: string;
  memoryId: string;
  via: string;
  edgeType: EdgeType;
  confidence: number;
  /** When the neighbour's content happened or was said: the newer wins a tie. */
  occurredAt: string;
}

/**
 * Which neighbours may be reached (live, current, visible, not rules, in the requested layers), and how a step's edge
 * type weighs in the order they are read (strongest first; unlisted types weigh 0).
 */
export interface NeighbourFilter {
  scope: ResolvedScope;
  layer: 'working' | 'long_term' | null;
  maxRows: number;
  edgeWeights: Readonly<Record<string, number>>;
}

function reachable(filter: NeighbourFilter): Condition {
  const conditions: Condition[] = [
    { sql: "m.deleted_at IS NULL AND m.superseded_by IS NULL AND m.layer <> 'rule'", args: [] },
    visibleTo(filter.scope, 'm'),
  ];
  if (filter.layer !== null) conditions.push({ sql: 'm.layer = ?', args: [filter.layer] });
  return allOf(...conditions);
}

function weightCase(column: string, weights: NeighbourFilter['edgeWeights']): string {
  // The types are the contract's edge names and the weights numbers: both are safe to inline.
  const cases = Object.entries(weights).map(([type, weight]) => `WHEN '${type}' THEN ${Number(weight)}`);
  return `(CASE ${column} ${cases.join(' ')} ELSE 0 END)`;
}

function marks(ids: readonly string[]): string {
  return ids.map(() => '?').join(', ');
}

/** One neighbour as the SQL returns it. */
interface NeighbourRow {
  from_id: string;
  memory_id: string;
  via: string;
  edge_type: string;
  confidence: number;
  occurred_at: string;
}

/**
 * Neighbours through shared nodes. Repo and user nodes are skipped: visibility already narrows retrieval to one
 * project and user, so those nodes link every visible memory and carry no evidence. Strongest links first.
 */
export async function nodeNeighbours(database: Database, fromIds: readonly string[], filter: NeighbourFilter) {
  const where = reachable(filter);
  const rows = await database.all<NeighbourRow>(
    `SELECT source.memory_id AS from_id, target.memory_id AS memory_id, n.label AS via, target.edge_type AS edge_type,
            source.confidence * target.confidence AS confidence, m.occurred_at AS occurred_at
       FROM graph_memory_links source
       JOIN graph_nodes n ON n.id = source.node_id AND n.type NOT IN ('repo', 'user')
       JOIN graph_memory_links target ON target.node_id = source.node_id AND target.memory_id <> source.memory_id
       JOIN memories m ON m.id = target.memory_id
      WHERE source.memory_id IN (${marks(fromIds)}) AND ${where.sql}
      ORDER BY ${weightCase('target.edge_type', filter.edgeWeights)} * source.confidence * target.confidence DESC, m.occurred_at DESC
      LIMIT ?`,
    [...fromIds, ...where.args, filter.maxRows],
  );
  return rows.map(toStep);
}

/** Neighbours along memory-to-memory edges, in both directions (an edge relates its two memories). */
export async function edgeNeighbours(database: Database, fromIds: readonly string[], filter: NeighbourFilter) {
  const where = reachable(filter);
  const args: InValue[] = [...fromIds, ...where.args, ...fromIds, ...where.args, filter.maxRows];
  const rows = await database.all<NeighbourRow>(
    `SELECT * FROM (
       SELECT e.source_memory_id AS from_id, e.target_memory_id AS memory_id, e.source_memory_id AS via,
              e.edge_type AS edge_type, e.confidence AS confidence, m.occurred_at AS occurred_at
         FROM graph_edges e JOIN memories m ON m.id = e.target_memory_id
        WHERE e.source_memory_id IN (${marks(fromIds)}) AND ${where.sql}
       UNION ALL
       SELECT e.target_memory_id, e.source_memory_id, e.target_memory_id, e.edge_type, e.confidence, m.occurred_at
         FROM graph_edges e JOIN memories m ON m.id = e.source_memory_id
        WHERE e.target_memory_id IN (${marks(fromIds)}) AND ${where.sql}
     ) ORDER BY ${weightCase('edge_type', filter.edgeWeights)} * confidence DESC, occurred_at DESC LIMIT ?`,
    args,
  );
  return rows.map(toStep);
}

function toStep(row: NeighbourRow): PathStep {
  return {
    fromId: row.from_id,
    memoryId: row.memory_id,
    via: row.via,
    edgeType: row.edge_type as EdgeType,
    confidence: Number(row.confidence),
    occurredAt: row.occurred_at,
  };
}
