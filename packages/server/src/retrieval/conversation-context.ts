import type { Database } from '../store/database.js';
import { type MemoryRow, prefixed } from '../store/memory-rows.js';
import { type CandidateScope, candidateFilter, type RankedCandidate } from './candidate-filter.js';

/**
 * Conversation context: memories written one after another in the same user and project scope, within 30 minutes,
 * are usually one conversation, and a turn often gets its subject from the turns before it (a reply such as "5 years
 * already!" answers "how long have you been married?"). So a lexical hit passes a share of its BM25 score to the next
 * three memories: 0.6, 0.3, 0.15 (halving with distance). On the development conversations, a reply one turn away
 * gained the most, two and three turns away still helped, and a full share (1.0) buried the hits themselves; passing
 * scores backwards (a question borrowing its answer's words) helped nothing, so it is forward only. Only a successor
 * the vector side finds related to the query (at or above the model's similarity floor) takes a share: consecutive
 * memories that are separate facts, not one conversation, do not pull each other in.
 */
export const CONTEXT_WEIGHTS: readonly number[] = [0.6, 0.3, 0.15];
/** How far apart two memories may be written and still count as one conversation. */
export const CONTEXT_WINDOW_MS = 30 * 60_000;

interface Link {
  from_seq: number;
  next_seq: number;
}

/** The next memories (up to one per context weight) after each hit, in the hit's exact user and project scope. */
async function successorsOf(database: Database, hits: readonly RankedCandidate[]): Promise<Map<number, number[]>> {
  const links = await database.all<Link>(
    `SELECT h.seq AS from_seq, n.seq AS next_seq
       FROM memories h JOIN memories n ON n.seq IN (
         SELECT s.seq FROM memories s
          WHERE s.seq > h.seq AND s.deleted_at IS NULL AND s.user_id IS h.user_id AND s.project_id IS h.project_id
          ORDER BY s.seq LIMIT ?)
      WHERE h.seq IN (${hits.map(() => '?').join(', ')})
      ORDER BY h.seq, n.seq`,
    [CONTEXT_WEIGHTS.length, ...hits.map((hit) => hit.row.seq)],
  );
  const successors = new Map<number, number[]>();
  for (const link of links) {
    const from = Number(link.from_seq);
    successors.set(from, [...(successors.get(from) ?? []), Number(link.next_seq)]);
  }
  return successors;
}

/**
 * The lexical list with conversation context: the memories following each hit (live, same user and project, written
 * within the window, passing the request's filters, related to the query per `related`) gain `CONTEXT_WEIGHTS[step]` x the hit's score, which can bring
 * in a memory that shares no word with the query. Returns the list re-sorted by the new scores.
 */
export async function withConversationContext(
  database: Database,
  hits: readonly RankedCandidate[],
  options: CandidateScope,
  related: (seqs: readonly number[]) => Promise<Set<number>>,
): Promise<RankedCandidate[]> {
  if (hits.length === 0) return [];
  const successors = await successorsOf(database, hits);
  const eligible = await related([...new Set([...successors.values()].flat())]);
  const wanted = [...eligible];
  const where = candidateFilter(options);
  const rows =
    wanted.length === 0
      ? []
      : await database.all<MemoryRow>(
          `SELECT ${prefixed('m')} FROM memories m WHERE m.seq IN (${wanted.map(() => '?').join(', ')}) AND ${where.sql}`,
          [...wanted, ...where.args],
        );
  const rowBySeq = new Map(rows.map((row) => [Number(row.seq), row]));
  const scored = new Map<number, RankedCandidate>(hits.map((hit) => [hit.row.seq, { ...hit }]));
  for (const hit of hits) {
    const written = Date.parse(hit.row.created_at);
    (successors.get(hit.row.seq) ?? []).forEach((seq, step) => {
      const row = rowBySeq.get(seq);
      const gap = row === undefined ? Number.NaN : Date.parse(row.created_at) - written;
      if (row === undefined || !(gap >= 0 && gap <= CONTEXT_WINDOW_MS)) return;
      const current = scored.get(seq) ?? { row, score: 0, source: hit.source };
      scored.set(seq, { ...current, score: current.score + (CONTEXT_WEIGHTS[step] ?? 0) * hit.score });
    });
  }
  return [...scored.values()].sort((left, right) => right.score - left.score || left.row.seq - right.row.seq);
}
