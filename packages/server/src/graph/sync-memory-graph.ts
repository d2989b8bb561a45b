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
async function relationsOf(
  database: Database,
  row: MemoryRow,
  groupKey: string | null,
  batchPeers: readonly MemoryRow[],
): Promise<MemoryEdge[]> {
  const metadata = toMemory(row).metadata;
  const [similar, named, sameSubject] = [
    await similarMemories(database, row),
    await metadataEdges(database, row, metadata),
    groupKey === null ? [] : await sameSubjectEdges(database, row, groupKey, batchPeers),
  ];
  const byKey = new Map<string, MemoryEdge>();
  // Later lists win: a same-subject verdict (duplicate or contradiction) overrides a plain similarity.
  for (const edge of [...similar, ...named, ...sameSubject]) byKey.set(`${edge.targetId}|${edge.edgeType}`, edge);
  const contradicted = new Set(
    sameSubject.filter((edge) => edge.edgeType === 'contradicts').map((edge) => edge.targetId),
  );
  return [...byKey.values()].filter((edge) => !(edge.edgeType === 'similar_to' && contradicted.has(edge.targetId)));
}

/** A memory's extraction, ready to write: its statements and whether its relations could be computed. */
interface Extraction {
  row: MemoryRow;
  statements: InStatement[];
  partial: boolean;
}

/** Extracts one memory; `earlier` holds the batch's already extracted memories by subject group. */
async function extract(
  database: Database,
  row: MemoryRow,
  timestamp: string,
  earlier: Map<string, MemoryRow[]>,
): Promise<Extraction> {
  const { groupKey, subject } = subjectGroup(row);
  const group = subject.key === '' ? null : { key: groupKey, source: subject.source };
  let edges: MemoryEdge[] = [];
  let partial = false;
  try {
    edges = await relationsOf(database, row, group?.key ?? null, group === null ? [] : (earlier.get(group.key) ?? []));
  } catch {
    partial = true;
  }
  if (group !== null) earlier.set(group.key, [...(earlier.get(group.key) ?? []), row]);
  return { row, statements: writeStatements(row, nodeLinks(toMemory(row)), edges, group, timestamp), partial };
}

async function recordOutcome(database: Database, extraction: Extraction, written: boolean, now: Date) {
  if (!written) {
    await recordGraphError(
      database,
      'GRAPH_RELATIONSHIP_SYNC_FAILED',
      'Graph extraction could not be written',
      extraction.row.id,
      now,
    );
    return 'failed';
  }
  if (!extraction.partial) return 'synced';
  await recordGraphError(
    database,
    'GRAPH_RELATIONSHIP_PARTIAL_DEGRADE',
    'Memory links were written but memory-to-memory relations could not be computed',
    extraction.row.id,
    now,
  );
  return 'partial';
}

async function wrote(database: Database, statements: InStatement[]): Promise<boolean> {
  try {
    await database.transaction(statements);
    return true;
  } catch {
    return false;
  }
}

/**
 * (Re-)extracts memories' graphs deterministically: each memory's old links and extraction edges are dropped, then
 * its node links and memory-to-memory edges written, all memories in one transaction (an indexer's batch); if
 * that fails, each memory is written on its own so one bad row costs only its own graph. `alsoCommit` adds a
 * memory's own statements to whichever transaction writes its graph (the indexer finishes its job there). Never
 * throws: the memories are already stored, the graph is derived from them; a failure is recorded with a code for
 * observability (and logged by the caller). Returns one outcome per row, in order.
 */
export async function syncMemoryGraphs(
  database: Database,
  rows: readonly MemoryRow[],
  now: Date,
  alsoCommit: (row: MemoryRow) => InStatement[] = () => [],
): Promise<GraphSyncOutcome[]> {
  const timestamp = now.toISOString();
  const extractions: Extraction[] = [];
  const earlier = new Map<string, MemoryRow[]>();
  for (const row of rows) {
    const extraction = await extract(database, row, timestamp, earlier);
    extraction.statements.push(...alsoCommit(row));
    extractions.push(extraction);
  }
  const together = await wrote(
    database,
    extractions.flatMap((extraction) => extraction.statements),
  );
  const outcomes: GraphSyncOutcome[] = [];
  for (const extraction of extractions) {
    const written = together || (await wrote(database, extraction.statements));
    outcomes.push(await recordOutcome(database, extraction, written, now));
  }
  return outcomes;
}
