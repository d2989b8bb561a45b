import { conflictConfidence, conflictInOtherWords } from '../consolidation/conflict-in-other-words.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { type MemoryEdge, type Neighbours, newerLast, STATEMENT_TYPES } from './related-memories.js';

/**
 * Neighbours compared per write. The vector index ranks a memory's neighbours by meaning, so the memories about the
 * same thing are among the first, whatever their words; the comparison itself is cheap.
 */
const COMPARED_NEIGHBOURS = 10;

/**
 * `contradicts` edges to neighbours that state the same subject in other words with another value or the opposite
 * polarity (conflict-in-other-words.ts), decided at write time by the indexer next to the memory's vector. The
 * vectors find the candidates ("same subject" even when reworded); the deterministic rule decides, so the same
 * memories always give the same edges, with no model call. `exclude` holds neighbours already related by the
 * subject-key rule (its verdict stands).
 */
export async function conflictEdges(
  tenant: TenantDatabase,
  row: MemoryRow,
  neighbours: Neighbours,
  exclude: ReadonlySet<string>,
): Promise<MemoryEdge[]> {
  if (!STATEMENT_TYPES.has(row.type)) return [];
  const ids = [...neighbours.scored]
    .sort((left, right) => right.similarity - left.similarity)
    .map((neighbour) => neighbour.id)
    .filter((id) => !exclude.has(id))
    .slice(0, COMPARED_NEIGHBOURS);
  if (ids.length === 0) return [];
  const scope = { tenantId: null, userId: row.user_id, projectId: row.project_id };
  const peers = await tenant.memories.findManyVisible(ids, scope);
  return peers.flatMap<MemoryEdge>((peer) => {
    if (!STATEMENT_TYPES.has(peer.type) || peer.content_hash === row.content_hash) return [];
    if (peer.superseded_by !== null || peer.deleted_at !== null) return [];
    const [older, newer] = newerLast(peer, row);
    const reason = conflictInOtherWords(older.content, newer.content);
    if (reason === null) return [];
    const { kind, ...evidence } = reason;
    return [
      {
        sourceId: row.id,
        targetId: peer.id,
        edgeType: 'contradicts',
        confidence: conflictConfidence(reason),
        detail: { reason: kind, ...evidence, newerId: newer.id },
      },
    ];
  });
}
