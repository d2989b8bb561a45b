import type { ConflictPair, Memory } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { contradictionsAmong } from '../store/graph-edges.js';
import { parseJson } from '../store/rows.js';

/**
 * `conflicts[]` (docs/architecture.md#retrieval): the `contradicts` edges between memories of one answer, each with why and what to do.
 * One query however many memories are returned.
 */
export async function conflictsAmong(database: Database, memories: readonly Memory[]): Promise<ConflictPair[]> {
  if (memories.length < 2) return [];
  const byId = new Map(memories.map((memory) => [memory.id, memory]));
  const edges = await contradictionsAmong(database, [...byId.keys()]);
  const seen = new Set<string>();
  const conflicts: ConflictPair[] = [];
  for (const edge of edges) {
    const first = byId.get(edge.source_memory_id);
    const second = byId.get(edge.target_memory_id);
    if (first === undefined || second === undefined) continue;
    const pairKey = [first.id, second.id].sort().join('|');
    if (seen.has(pairKey)) continue;
    seen.add(pairKey);
    const [older, newer] = first.createdAt <= second.createdAt ? [first, second] : [second, first];
    const subject = parseJson<{ subjectKey?: string }>(edge.detail, {}).subjectKey;
    const about = subject === undefined || subject === '' ? 'the same subject' : `the same subject ("${subject}")`;
    conflicts.push({
      memoryAId: older.id,
      memoryBId: newer.id,
      edgeType: 'contradicts',
      confidence: Number(edge.confidence),
      explanation: `Memories ${older.id} and ${newer.id} state ${about} differently; ${newer.id} is the newer one.`,
      suggestion: `Treat ${newer.id} as current unless the user says otherwise; run memories/consolidate to supersede ${older.id}, or edit or forget the wrong one.`,
    });
  }
  return conflicts;
}
