import type { ConflictPair, Memory } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { contradictionsAmong } from '../store/graph-edges.js';
import { parseJson } from '../store/rows.js';

/** What extraction and consolidation record on a `contradicts` edge (graph_edges.detail). */
interface ContradictionDetail {
  subjectKey?: string;
  /**
   * `value_changed` / `negated` / `other_value` / `opposite_sentiment` / `opposite_state` (a conflict in other words),
   * `same_claim_other_value` (the subject-key rule).
   */
  reason?: string;
  valueKind?: string;
  /** The single-valued relation of an `other_value` conflict ("lives in"). */
  relation?: string;
  older?: string[];
  newer?: string[];
  topic?: string[];
}

/** When a memory's content happened: `occurredAt` (this server always sends it), else its write time. */
function happened(memory: Memory): string {
  return memory.occurredAt ?? memory.createdAt;
}

/** The two memories, older first: by when they happened, then by when they were written. */
export function olderFirst(left: Memory, right: Memory): [Memory, Memory] {
  const order = happened(left).localeCompare(happened(right)) || left.createdAt.localeCompare(right.createdAt);
  return order <= 0 ? [left, right] : [right, left];
}

const KIND_NAMES: Record<string, string> = {
  '<weekday>': 'day',
  '<month>': 'month',
  '<time>': 'time',
  '<colour>': 'colour',
  '<switch>': 'setting',
  '<duration>': 'duration (in seconds)',
  '<frequency>': 'frequency (times a day)',
  '<direction>': 'direction',
  '<side>': 'side',
  '#age': 'age',
};

/** Why the pair conflicts, in words: the changed value or the negation when extraction recorded it. */
function why(detail: ContradictionDetail): string {
  const about =
    detail.subjectKey !== undefined && detail.subjectKey !== ''
      ? `the same subject ("${detail.subjectKey}")`
      : detail.topic !== undefined && detail.topic.length > 0
        ? `the same subject (${detail.topic.map((word) => `"${word}"`).join(', ')})`
        : 'the same subject';
  if (detail.reason === 'negated') return `one negates what the other says about ${about}`;
  if (detail.reason === 'other_value' && detail.older !== undefined && detail.newer !== undefined)
    return `they give ${about} two values of "${detail.relation ?? 'is'}", which holds one at a time (${detail.older.join(', ')} before, ${detail.newer.join(', ')} now)`;
  if (detail.reason === 'opposite_sentiment' && detail.older !== undefined && detail.newer !== undefined) {
    const [subject = 'the subject', object = 'it'] = detail.topic ?? [];
    return `"${subject}" ${detail.older.join(', ')} "${object}" in one and ${detail.newer.join(', ')} it in the other (${detail.older.join(', ')} before, ${detail.newer.join(', ')} now)`;
  }
  if (detail.reason === 'opposite_state' && detail.older !== undefined && detail.newer !== undefined)
    return `they say ${about} is in two states that exclude each other ("${detail.older.join(', ')}" before, "${detail.newer.join(', ')}" now)`;
  if (detail.reason === 'value_changed' && detail.older !== undefined && detail.newer !== undefined) {
    const period = detail.valueKind?.split('/')[1];
    const kind =
      detail.valueKind === undefined
        ? 'value'
        : (KIND_NAMES[detail.valueKind] ?? (period === undefined ? 'value' : `amount a ${period}`));
    return `they give ${about} a different ${kind} (${detail.older.join(', ')} before, ${detail.newer.join(', ')} now)`;
  }
  return `they state ${about} differently`;
}

/**
 * `conflicts[]` (docs/architecture.md#retrieval): the `contradicts` edges between memories of one answer, each with
 * why and what to do; `memoryAId` is the older (by when it happened), `memoryBId` the newer. One query however many
 * memories are returned.
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
    // A pair one side already superseded is settled: the list shows "superseded by", not a dispute.
    if (first.supersededBy === second.id || second.supersededBy === first.id) continue;
    const pairKey = [first.id, second.id].sort().join('|');
    if (seen.has(pairKey)) continue;
    seen.add(pairKey);
    const [older, newer] = olderFirst(first, second);
    const detail = parseJson<ContradictionDetail>(edge.detail, {});
    conflicts.push({
      memoryAId: older.id,
      memoryBId: newer.id,
      edgeType: 'contradicts',
      confidence: Number(edge.confidence),
      explanation: `Memories ${older.id} and ${newer.id} conflict: ${why(detail)}; ${newer.id} is the newer one (${happened(newer).slice(0, 10)} against ${happened(older).slice(0, 10)}).`,
      suggestion: `Treat ${newer.id} as current unless the user says otherwise; ask the user if it matters, then edit or forget the wrong one (memories/consolidate supersedes ${older.id} when it states the same claim).`,
    });
  }
  return conflicts;
}

/**
 * Puts the newer memory of each pair (a conflict, or a `newerFirstPairs` pair) above the older one where both are in
 * `memories` (docs/architecture.md#retrieval):
 * the newer moves to just above the older; everything else keeps its place. A model reading top-down meets the
 * current statement first, whatever the scores said.
 */
export function newerAboveOlder<Entry extends { id: string }>(
  memories: readonly Entry[],
  conflicts: readonly Pick<ConflictPair, 'memoryAId' | 'memoryBId'>[],
): Entry[] {
  const ordered = [...memories];
  for (const conflict of conflicts) {
    const olderAt = ordered.findIndex((memory) => memory.id === conflict.memoryAId);
    const newerAt = ordered.findIndex((memory) => memory.id === conflict.memoryBId);
    if (olderAt === -1 || newerAt === -1 || newerAt < olderAt) continue;
    const [newer] = ordered.splice(newerAt, 1);
    if (newer !== undefined) ordered.splice(olderAt, 0, newer);
  }
  return ordered;
}
