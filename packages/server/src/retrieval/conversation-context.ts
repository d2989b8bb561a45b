import type { Database } from '../store/database.js';
import { type MemoryRow, prefixed } from '../store/memory-rows.js';
import { type CandidateScope, candidateFilter, type RankedCandidate } from './candidate-filter.js';

/**
 * Conversation context: memories written one after another in the same user and project scope, said within 30
 * minutes of each other (`occurred_at`: an import of dated sessions keeps each session's turns together and its
 * sessions apart), are usually one conversation, and a turn often gets its subject from the turns before it (a reply
 * such as "5 years already!" answers "how long have you been married?"). So a lexical hit passes a share of its BM25
 * score to the next three memories: 0.6, 0.3, 0.15 (halving with distance). On the development conversations, a reply
 * one turn away gained the most, two and three turns away still helped, and a full share (1.0) buried the hits
 * themselves. Only a successor the vector side finds related to the query (at or above the model's similarity floor)
 * takes a share: consecutive memories that are separate facts, not one conversation, do not pull each other in.
 */
export const CONTEXT_WEIGHTS: readonly number[] = [0.6, 0.3, 0.15];
/**
 * The share a hit passes backwards, to the memory written just before it: a reply that repeats the question's words
 * ("Three years, I've had the turtles since...") points at the question it answers, and a question at the statement
 * it asks about. Smaller than the forward shares, one step only: with the Porter-stemmed index and the common-term
 * credit, 0.15 one step back gained about 0.01 recall@10 (0.3 the same, a second step nothing more); without them
 * it had helped nothing.
 */
export const PREDECESSOR_WEIGHTS: readonly number[] = [0.15];
/** How far apart two memories may be said (`occurred_at`) and still count as one conversation. */
export const CONTEXT_WINDOW_MS = 30 * 60_000;

interface Link {
  from_seq: number;
  next_seq: number;
}

/**
 * The memories next to each hit in the hit's exact user and project scope, nearest first: up to one per weight in
 * `direction` (after the hit for `next`, before it for `previous`).
 */
async function neighboursOf(
  database: Database,
  hits: readonly RankedCandidate[],
  direction: 'next' | 'previous',
): Promise<Map<number, number[]>> {
  const forward = direction === 'next';
  const count = (forward ? CONTEXT_WEIGHTS : PREDECESSOR_WEIGHTS).length;
  const neighbours = new Map<number, number[]>();
  if (count === 0) return neighbours;
  const links = await database.all<Link>(
    `SELECT h.seq AS from_seq, n.seq AS next_seq
       FROM memories h JOIN memories n ON n.seq IN (
         SELECT s.seq FROM memories s
          WHERE s.seq ${forward ? '>' : '<'} h.seq AND s.deleted_at IS NULL
            AND s.user_id IS h.user_id AND s.project_id IS h.project_id
          ORDER BY s.seq ${forward ? 'ASC' : 'DESC'} LIMIT ?)
      WHERE h.seq IN (${hits.map(() => '?').join(', ')})
      ORDER BY h.seq, n.seq ${forward ? 'ASC' : 'DESC'}`,
    [count, ...hits.map((hit) => hit.row.seq)],
  );
  for (const link of links) {
    const from = Number(link.from_seq);
    neighbours.set(from, [...(neighbours.get(from) ?? []), Number(link.next_seq)]);
  }
  return neighbours;
}

/**
 * The lexical list with conversation context: the memories following each hit (live, same user and project, said
 * within the window, passing the request's filters, related to the query per `related`) gain `CONTEXT_WEIGHTS[step]`
 * x the hit's score, and the one before it `PREDECESSOR_WEIGHTS[step]` x, which can bring in a memory that shares no
 * word with the query. Returns the list re-sorted by the new scores.
 */
export async function withConversationContext(
  database: Database,
  hits: readonly RankedCandidate[],
  options: CandidateScope,
  related: (seqs: readonly number[]) => Promise<Set<number>>,
): Promise<RankedCandidate[]> {
  if (hits.length === 0) return [];
  const successors = await neighboursOf(database, hits, 'next');
  const predecessors = await neighboursOf(database, hits, 'previous');
  const eligible = await related([...new Set([...successors.values(), ...predecessors.values()].flat())]);
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
  const pass = (hit: RankedCandidate, seqs: readonly number[], weights: readonly number[], sign: 1 | -1) => {
    const said = Date.parse(hit.row.occurred_at);
    seqs.forEach((seq, step) => {
      const row = rowBySeq.get(seq);
      const gap = row === undefined ? Number.NaN : sign * (Date.parse(row.occurred_at) - said);
      if (row === undefined || !(gap >= 0 && gap <= CONTEXT_WINDOW_MS)) return;
      const current = scored.get(seq) ?? { row, score: 0, source: hit.source };
      scored.set(seq, { ...current, score: current.score + (weights[step] ?? 0) * hit.score });
    });
  };
  for (const hit of hits) {
    pass(hit, successors.get(hit.row.seq) ?? [], CONTEXT_WEIGHTS, 1);
    pass(hit, predecessors.get(hit.row.seq) ?? [], PREDECESSOR_WEIGHTS, -1);
  }
  return [...scored.values()].sort((left, right) => right.score - left.score || left.row.seq - right.row.seq);
}
