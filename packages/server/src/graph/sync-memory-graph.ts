import type { InStatement } from '@libsql/client';
import type { Database } from '../store/database.js';
import { recordGraphError } from '../store/graph-errors.js';
import { writeMemoryGraphStatements } from '../store/graph-writes.js';
import { type MemoryRow, toMemory } from '../store/memory-rows.js';
import { type SupersedePair, supersedeAtWriteStatements } from '../store/write-supersede.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { batchNearestNeighbours } from './batch-neighbours.js';
import { conflictEdges } from './conflict-edges.js';
import { memoryNodeId, nodeLinks } from './graph-model.js';
import { paraphraseEdge } from './paraphrase-edges.js';
import {
  type MemoryEdge,
  metadataEdges,
  type Neighbours,
  nearestNeighbours,
  sameSubjectEdges,
  similarEdges,
  subjectGroup,
} from './related-memories.js';

/** How a sync went: `partial` when links were written but memory-to-memory relations could not be computed. */
export type GraphSyncOutcome = 'synced' | 'partial' | 'failed';

/**
 * Memory-to-memory relations of a memory (a failure here degrades the sync to links only). `searched` holds its
 * neighbours when the batch's search found them; otherwise they are searched for it alone.
 */
async function relationsOf(
  tenant: TenantDatabase,
  row: MemoryRow,
  groupKey: string | null,
  batchPeers: readonly MemoryRow[],
  searched: Neighbours | undefined,
): Promise<MemoryEdge[]> {
  const metadata = toMemory(row).metadata;
  const neighbours = searched ?? (await nearestNeighbours(tenant, row));
  const named = await metadataEdges(tenant, row, metadata);
  const subject =
    groupKey === null
      ? { edges: [], compared: [] }
      : await sameSubjectEdges(tenant.database, row, groupKey, batchPeers);
  const sameSubject = subject.edges;
  // The subject-key rule has compared its group (a log among them included); the other neighbours are compared in
  // other words.
  const reworded = await conflictEdges(tenant, row, neighbours, new Set(subject.compared));
  const restated = await paraphraseEdge(tenant, row, neighbours);
  const byKey = new Map<string, MemoryEdge>();
  // Later lists win: a restatement overrides a plain similarity, a same-subject verdict (duplicate or contradiction)
  // both.
  for (const edge of [...similarEdges(row, neighbours), ...restated, ...named, ...sameSubject, ...reworded])
    byKey.set(`${edge.targetId}|${edge.edgeType}`, edge);
  const contradicted = new Set(
    [...sameSubject, ...reworded].filter((edge) => edge.edgeType === 'contradicts').map((edge) => edge.targetId),
  );
  return [...byKey.values()].filter((edge) => !(edge.edgeType === 'similar_to' && contradicted.has(edge.targetId)));
}

/** A memory's extraction, ready to write: its statements and whether its relations could be computed. */
interface Extraction {
  row: MemoryRow;
  statements: InStatement[];
  partial: boolean;
}

/**
 * Extracts one memory; `earlier` holds the batch's already extracted memories by subject group, `searched` the
 * batch's neighbours by memory id.
 */
async function extract(
  tenant: TenantDatabase,
  row: MemoryRow,
  timestamp: string,
  earlier: Map<string, MemoryRow[]>,
  searched: ReadonlyMap<string, Neighbours>,
): Promise<Extraction> {
  const { groupKey, subject } = subjectGroup(row);
  const group = subject.key === '' ? null : { key: groupKey, source: subject.source };
  let edges: MemoryEdge[] = [];
  let partial = false;
  try {
    const peers = group === null ? [] : (earlier.get(group.key) ?? []);
    edges = await relationsOf(tenant, row, group?.key ?? null, peers, searched.get(row.id));
  } catch {
    partial = true;
  }
  if (group !== null) earlier.set(group.key, [...(earlier.get(group.key) ?? []), row]);
  // Where consolidation's rule is sure (the same claim with another value), the older is superseded now.
  const supersede = edges.flatMap<SupersedePair>((edge) => {
    if (edge.edgeType !== 'contradicts' || edge.detail.supersede !== true) return [];
    const newerId = String(edge.detail.newerId);
    return [{ newerId, olderId: newerId === edge.sourceId ? edge.targetId : edge.sourceId }];
  });
  const graph = {
    memoryId: row.id,
    memoryNodeId: memoryNodeId(row.id),
    links: nodeLinks(toMemory(row)),
    edges,
    subject: group,
  };
  return {
    row,
    statements: [...writeMemoryGraphStatements(graph, timestamp), ...supersedeAtWriteStatements(supersede, timestamp)],
    partial,
  };
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
  tenant: TenantDatabase,
  rows: readonly MemoryRow[],
  now: Date,
  alsoCommit: (row: MemoryRow) => InStatement[] = () => [],
): Promise<GraphSyncOutcome[]> {
  const { database } = tenant;
  const timestamp = now.toISOString();
  const extractions: Extraction[] = [];
  const earlier = new Map<string, MemoryRow[]>();
  // One vector search statement for the batch; if it fails, each memory searches on its own (and may degrade).
  const searched = await batchNearestNeighbours(tenant, rows).catch(() => new Map<string, Neighbours>());
  for (const row of rows) {
    const extraction = await extract(tenant, row, timestamp, earlier, searched);
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
