import type { InStatement } from '@libsql/client';
import type { Database } from '../database.js';
import type { ErasedIds } from './erase-database.js';

/** Counts of rows the sweep removed, by receipt kind. */
export interface SweptCounts {
  vectors: number;
  graphNodes: number;
  graphLinks: number;
  graphEdges: number;
  memorySubjects: number;
  indexJobs: number;
  embeddingJobs: number;
  graphErrors: number;
}

const IDS = '(SELECT value FROM json_each(?))';

/**
 * Deletes what an indexer pass that had read an erased memory before the erasure wrote after it: vectors (by the
 * memory's `seq`, never reused) and graph rows or jobs naming an erased id. Run once that pass has ended
 * (`IndexingService.settled`); no later pass reads an erased memory, since their jobs went with them. Nothing of
 * another memory matches: the ids are the erased ones only.
 */
export async function sweepLateWrites(database: Database, ids: ErasedIds): Promise<SweptCounts> {
  const none: SweptCounts = {
    vectors: 0,
    graphNodes: 0,
    graphLinks: 0,
    graphEdges: 0,
    memorySubjects: 0,
    indexJobs: 0,
    embeddingJobs: 0,
    graphErrors: 0,
  };
  if (ids.memoryIds.length === 0) return none;
  const memoryIds = JSON.stringify(ids.memoryIds);
  const seqs = JSON.stringify(ids.memorySeqs);
  const tables = await database.all<{ table_name: string }>('SELECT table_name FROM embedding_vector_tables');
  const statements: Array<[keyof SweptCounts, InStatement]> = [
    [
      'graphNodes',
      {
        sql: `DELETE FROM graph_nodes
               WHERE (id IN (SELECT node_id FROM graph_memory_links WHERE memory_id IN ${IDS})
                      AND NOT EXISTS (SELECT 1 FROM graph_memory_links l
                                       WHERE l.node_id = graph_nodes.id AND l.memory_id NOT IN ${IDS}))
                  OR id IN (SELECT 'memory:' || value FROM json_each(?))`,
        args: [memoryIds, memoryIds, memoryIds],
      },
    ],
    ['graphLinks', { sql: `DELETE FROM graph_memory_links WHERE memory_id IN ${IDS}`, args: [memoryIds] }],
    [
      'graphEdges',
      {
        sql: `DELETE FROM graph_edges WHERE source_memory_id IN ${IDS} OR target_memory_id IN ${IDS}`,
        args: [memoryIds, memoryIds],
      },
    ],
    ['memorySubjects', { sql: `DELETE FROM memory_subjects WHERE memory_id IN ${IDS}`, args: [memoryIds] }],
    ['indexJobs', { sql: `DELETE FROM index_jobs WHERE memory_seq IN ${IDS}`, args: [seqs] }],
    ['embeddingJobs', { sql: `DELETE FROM embedding_jobs WHERE memory_id IN ${IDS}`, args: [memoryIds] }],
    ['graphErrors', { sql: `DELETE FROM graph_errors WHERE memory_id IN ${IDS}`, args: [memoryIds] }],
    ...tables.map((table): [keyof SweptCounts, InStatement] => [
      'vectors',
      { sql: `DELETE FROM ${table.table_name} WHERE memory_seq IN ${IDS}`, args: [seqs] },
    ]),
  ];
  const changed = await database.transaction(statements.map(([, statement]) => statement));
  statements.forEach(([kind], index) => {
    none[kind] += changed[index] ?? 0;
  });
  return none;
}
