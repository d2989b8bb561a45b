import { sameStatement } from '../consolidation/same-statement.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { type MemoryEdge, type Neighbours, newerLast, STATEMENT_TYPES } from './related-memories.js';

/**
 * A `similar_to` edge marked `detail.paraphrase` when the memory restates its nearest neighbour in other words
 * (docs/architecture.md#write-side-behaviour): the neighbour is the closest memory in meaning by the model's
 * vectors (no threshold: the nearest of all, which a restatement is), and the words agree on everything
 * (`sameStatement`: the same topic words once inflection, derivation, synonyms and clippings are folded, the same
 * values, polarity, people, names and roles). Consolidation merges the older into the newer on this edge; nothing
 * is merged at write time. One neighbour is read per write, so the cost is bounded.
 */
export async function paraphraseEdge(
  tenant: TenantDatabase,
  row: MemoryRow,
  neighbours: Neighbours,
): Promise<MemoryEdge[]> {
  if (neighbours.measure !== 'cosine' || !STATEMENT_TYPES.has(row.type)) return [];
  const nearest = [...neighbours.scored].sort((left, right) => right.similarity - left.similarity)[0];
  if (nearest === undefined) return [];
  const scope = { tenantId: null, userId: row.user_id, projectId: row.project_id };
  const [peer] = await tenant.memories.findManyVisible([nearest.id], scope);
  if (peer === undefined || peer.type !== row.type || peer.content_hash === row.content_hash) return [];
  if (peer.superseded_by !== null || peer.deleted_at !== null) return [];
  if (peer.project_id !== row.project_id || peer.user_id !== row.user_id) return [];
  const [older, newer] = newerLast(peer, row);
  if (!sameStatement(older.content, newer.content)) return [];
  return [
    {
      sourceId: row.id,
      targetId: peer.id,
      edgeType: 'similar_to',
      confidence: Math.round(nearest.similarity * 1000) / 1000,
      detail: { measure: 'cosine', paraphrase: true, newerId: newer.id },
    },
  ];
}
