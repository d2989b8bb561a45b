import type { RankedCandidate } from '../src/retrieval/candidate-filter.js';
import type { MemoryRow } from '../src/store/memory-rows.js';

/** A fusion input: a memory row with just what fusion reads (seq, text fields, updated_at), score 0. */
export function rankedCandidate(
  seq: number,
  { content = `memory ${seq}`, source = 'lexical' }: { content?: string; source?: RankedCandidate['source'] } = {},
): RankedCandidate {
  const row = { seq, content, tags: '[]', category: null, paths: '[]', updated_at: '2020-01-01T00:00:00.000Z' };
  return { row: row as unknown as MemoryRow, score: 0, source };
}
