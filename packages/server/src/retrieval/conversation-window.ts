import type { Database } from '../store/database.js';
import { type MemoryRow, memoriesBySeq, prefixed } from '../store/memory-rows.js';
import { type CandidateScope, candidateFilter, type RankedCandidate } from './candidate-filter.js';
import type { ExpandedQuery } from './term-expansion.js';
import { inverseDocumentFrequency } from './term-frequency.js';

/**
 * How far apart two memories may be said (`occurred_at`) and still be one conversation: an import of dated sessions
 * keeps each session's turns together and its sessions apart.
 */
export const CONTEXT_WINDOW_MS = 30 * 60_000;
/**
 * How many memories on each side of a memory make up its conversation window: the memory is read with the two said
 * before it and the two said after it (same user and project, within `CONTEXT_WINDOW_MS` of it). In a conversation
 * between two parties that is the exchange around a turn: the message it answers and its author's previous one, the
 * reply to it and its author's next one. A turn often names its subject in none of its own words ("They were
 * awestruck and humbled." answers a question about a visit to a memorial named two turns earlier), and a question
 * often names words that its answer and the turns around it share between them.
 */
export const WINDOW_BEFORE = 2;
/** See `WINDOW_BEFORE`. */
export const WINDOW_AFTER = 2;
/**
 * A memory's own match of a term counts twice in its window, a neighbour's once: what a memory says is about it; what
 * is said around it is only its context. Without it, a turn and the filler replies next to it ("Can't wait!") score
 * nearly alike and the turn that says it loses its place to them (on the development conversations, counting it once
 * gave recall@10 0.789, MRR 0.596; twice 0.803, MRR 0.616; 1.5 to 4 times 0.797 - 0.803).
 */
export const OWN_WEIGHT = 2;
/**
 * A memory of more than this many words (about four sentences: a paragraph, not a chat turn) is a passage on its own:
 * it says what it is about, so it is its own window and is in no other memory's. Long messages (an assistant's
 * answer, a note of several topics) mix subjects; read with their neighbours they match every question any of them
 * touches. Chat turns are far shorter (a median of 25 words, at most 83, in the development conversations).
 */
export const WINDOW_MAX_WORDS = 80;
/** BM25's term-frequency saturation and length normalisation, FTS5's own (and the usual) defaults. */
const K1 = 1.2;
const B = 0.75;

/**
 * What one seek into a term's matches costs, in matches read: FTS5 evaluates a match restricted to a rowid (or a range
 * of rowids) by seeking in each segment of the index (5-40 us at 100k-1M memories), and reads a match past it in well
 * under a microsecond. See `membersHolding`.
 */
const MATCHES_PER_SEEK = 30;

/**
 * The window members (ascending `seq`) as ranges of seqs to read a frequent term's matches in, one seek each: a member
 * joins the range before it while the memories between them would hold fewer of the term's matches (the gap times the
 * share of memories holding the term) than one more seek costs. A window is a run of neighbours, so each is one seek.
 */
export function memberRanges(members: readonly number[], share: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const seq of members) {
    const last = ranges.at(-1);
    if (last !== undefined && (seq - last[1] - 1) * share <= MATCHES_PER_SEEK) last[1] = seq;
    else ranges.push([seq, seq]);
  }
  return ranges;
}

/**
 * Which of `members` (ascending `seq`) match a term as the full-text search matches it (stems, aliases, all indexed
 * columns; `frequency` of the `documents` memories match it). A term with at most `MATCHES_PER_SEEK` matches per member
 * is read in one pass over all its matches inside the database, the members probed against them; a more frequent one
 * range by range (`memberRanges`), the members probed against the matches in the ranges. Measured on 1,200-1,800
 * members (BENCHMARKS.md, "Issue 27, thirteenth round"): one pass 1.7-3.8 ms for a term in 3-12% of 100k memories,
 * 12-140 ms for one in 12-100% of 1M; the ranges 0.5-10 ms for a term in 12-100% of either; a seek per member (the
 * frequent terms' form before) 5-26 ms, 70 for one term.
 */
export async function membersHolding(
  database: Database,
  members: readonly number[],
  term: { expression: string; frequency: number },
  documents: number,
): Promise<number[]> {
  if (members.length === 0) return [];
  const wanted = JSON.stringify(members);
  const rows =
    term.frequency <= MATCHES_PER_SEEK * members.length
      ? await database.all<{ seq: number }>(
          'SELECT value AS seq FROM json_each(?) WHERE value IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)',
          [wanted, term.expression],
        )
      : await database.all<{ seq: number }>(
          `SELECT memories_fts.rowid AS seq FROM json_each(?) AS span CROSS JOIN memories_fts
            WHERE memories_fts MATCH ? AND memories_fts.rowid BETWEEN span.value ->> 0 AND span.value ->> 1
              AND +memories_fts.rowid IN (SELECT value FROM json_each(?))`,
          [JSON.stringify(memberRanges(members, term.frequency / Math.max(documents, 1))), term.expression, wanted],
        );
  return rows.map((row) => Number(row.seq));
}

interface Member {
  seq: number;
  content: string;
  occurred_at: string;
}

/** Words of a text as FTS5's tokenizer counts them (letters and digits), for window lengths. */
function tokenCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}

interface Neighbour extends Member {
  hit_seq: number;
}

/**
 * For each hit, the live memories of its exact user and project scope around it, in `seq` order with the hit among
 * them (up to `reach` before and `reach` after), and what each of them says and when.
 */
async function surroundings(
  database: Database,
  hits: readonly RankedCandidate[],
  reach: number,
): Promise<{ around: Map<number, number[]>; members: Map<number, Member> }> {
  const around = new Map<number, number[]>(hits.map((hit) => [hit.row.seq, [hit.row.seq]]));
  const members = new Map<number, Member>(hits.map(({ row }) => [row.seq, row]));
  // Before and after, both at once (a file database's reads run on as many worker threads as are free).
  const sides = await Promise.all(
    [false, true].map((forward) =>
      database.all<Neighbour>(
        `SELECT h.seq AS hit_seq, n.seq AS seq, n.content AS content, n.occurred_at AS occurred_at
         FROM memories h JOIN memories n ON n.seq IN (
           SELECT s.seq FROM memories s
            WHERE s.seq ${forward ? '>' : '<'} h.seq AND s.deleted_at IS NULL
              AND s.user_id IS h.user_id AND s.project_id IS h.project_id
            ORDER BY s.seq ${forward ? 'ASC' : 'DESC'} LIMIT ?)
        WHERE h.seq IN (SELECT value FROM json_each(?))`,
        [reach, JSON.stringify(hits.map((hit) => hit.row.seq))],
      ),
    ),
  );
  for (const row of sides.flat()) {
    const seq = Number(row.seq);
    around.get(Number(row.hit_seq))?.push(seq);
    members.set(seq, row);
  }
  for (const seqs of around.values()) seqs.sort((left, right) => left - right);
  return { around, members };
}

/**
 * The lexical list scored by conversation windows (hybrid only): each memory is scored with BM25 over its window, the
 * memory and the memories said around it (`WINDOW_BEFORE`, `WINDOW_AFTER`), as passage retrieval scores a passage
 * rather than a sentence: a term counts once per memory of the window that holds it, the window's length is its
 * memories' words, and each term weighs its IDF in the index. A memory that holds none of the query's words that
 * weigh (a word in most memories weighs nothing, as in BM25) enters only when the vector side finds it related to the
 * query (`related`): consecutive memories that are separate facts do not pull each other in. A memory written apart
 * from any other (no neighbour within `CONTEXT_WINDOW_MS`) is its own window and scores as plain BM25 would rank it.
 * Returns the list best first; the hits as given when the query has no term with weight (all of them in most memories,
 * or found by the substring fallback). The hits are rows that passed the candidate filter of `options` (the lexical
 * list's); only the memories around them are read and filtered again.
 */
export async function withConversationWindows(
  database: Database,
  hits: readonly RankedCandidate[],
  query: ExpandedQuery,
  options: CandidateScope,
  related: (seqs: readonly number[]) => Promise<Set<number>>,
): Promise<RankedCandidate[]> {
  const weighted = query.terms
    .map((term) => ({ ...term, idf: inverseDocumentFrequency(Math.max(query.documents, 1), term.frequency) }))
    .filter((term) => term.frequency > 0 && term.idf > 1e-6);
  if (hits.length === 0 || weighted.length === 0) return [...hits];
  const { around, members: read } = await surroundings(database, hits, WINDOW_BEFORE + WINDOW_AFTER);
  const members = [...read.keys()];
  const memberOf = new Map(
    [...read].map(([seq, row]) => [seq, { said: Date.parse(row.occurred_at), words: tokenCount(row.content) }]),
  );
  // Which members hold each term, as the full-text search matches it (stems, aliases, all indexed columns).
  const sorted = [...members].sort((left, right) => left - right);
  const holding = await Promise.all(weighted.map((term) => membersHolding(database, sorted, term, query.documents)));
  const termsOf = new Map<number, Set<number>>();
  holding.forEach((seqs, index) => {
    for (const seq of seqs) termsOf.set(seq, (termsOf.get(seq) ?? new Set()).add(index));
  });
  // The memories whose window holds a hit, each with its window.
  const windows = new Map<number, number[]>();
  for (const [hit, seqs] of around) {
    const at = seqs.indexOf(hit);
    for (let position = at - WINDOW_AFTER; position <= at + WINDOW_BEFORE; position++) {
      const seq = seqs[position];
      const own = seq === undefined ? undefined : memberOf.get(seq);
      if (seq === undefined || own === undefined || windows.has(seq)) continue;
      const short = (member: { words: number }) => member.words <= WINDOW_MAX_WORDS;
      windows.set(
        seq,
        short(own)
          ? seqs.slice(Math.max(0, position - WINDOW_BEFORE), position + WINDOW_AFTER + 1).filter((member) => {
              const other = memberOf.get(member);
              if (member === seq) return true;
              return other !== undefined && short(other) && Math.abs(other.said - own.said) <= CONTEXT_WINDOW_MS;
            })
          : [seq],
      );
    }
  }
  const unmatched = [...windows.keys()].filter((seq) => !termsOf.has(seq));
  const relatedOnes = await related(unmatched);
  const where = candidateFilter(options);
  const eligible = [...windows.keys()].filter((seq) => termsOf.has(seq) || relatedOnes.has(seq));
  // The hits' rows passed the same filter when the lexical list read them: only their neighbours are read (and
  // filtered) here.
  const hitRows = new Map(hits.map(({ row }) => [row.seq, row]));
  const unread = eligible.filter((seq) => !hitRows.has(seq));
  const passing =
    unread.length === 0
      ? []
      : await database.all<MemoryRow>(`SELECT ${prefixed('m')} FROM ${memoriesBySeq('m')} WHERE ${where.sql}`, [
          JSON.stringify(unread),
          ...where.args,
        ]);
  const rowOf = new Map<number, MemoryRow>(passing.map((row) => [Number(row.seq), row]));
  for (const seq of eligible) {
    const row = hitRows.get(seq);
    if (row !== undefined) rowOf.set(seq, row);
  }
  const length = (seqs: readonly number[]) => seqs.reduce((sum, seq) => sum + (memberOf.get(seq)?.words ?? 0), 0);
  const scored = [...windows].filter(([seq]) => rowOf.has(seq));
  const average = scored.reduce((sum, [, seqs]) => sum + length(seqs), 0) / Math.max(scored.length, 1) || 1;
  const sourceOf = new Map(hits.map((hit) => [hit.row.seq, hit.source]));
  return scored
    .map(([seq, seqs]): RankedCandidate => {
      const norm = K1 * (1 - B + (B * length(seqs)) / average);
      const score = weighted.reduce((sum, term, index) => {
        const frequency = seqs.reduce(
          (count, member) => count + (termsOf.get(member)?.has(index) ? (member === seq ? OWN_WEIGHT : 1) : 0),
          0,
        );
        return frequency === 0 ? sum : sum + (term.idf * frequency * (K1 + 1)) / (frequency + norm);
      }, 0);
      const row = rowOf.get(seq) as MemoryRow;
      return { row, score, source: sourceOf.get(seq) ?? 'lexical' };
    })
    .sort((left, right) => right.score - left.score || left.row.seq - right.row.seq);
}
