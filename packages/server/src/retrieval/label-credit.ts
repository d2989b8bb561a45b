import type { RankedCandidate } from './candidate-filter.js';
import { mentionsTerm, wordsOf } from './fts-query.js';

/**
 * A memory's label: one to three capitalised words and a colon that open it, like the speaker of a transcript line
 * ("Melanie: I painted a lake"), a role ("User: prefers dark mode") or a kind ("Decision: ship on Fridays"). Words
 * may carry digits, apostrophes, dots and hyphens ("Dr. Lee", "O'Brien"); times ("10:30") and links never match.
 */
const LABEL = /^\s*(\p{Lu}[\p{L}\p{N}'’.-]*(?: \p{Lu}[\p{L}\p{N}'’.-]*){0,2}):\s/u;

/**
 * Label credit: added once to a fused candidate whose label names a query term. The label says who or what the memory
 * is from, as a title field does for a document, and BM25 counts the same word no higher there than anywhere else:
 * asked what Dana thinks, the memories Dana wrote answer better than those that only mention her. 0.003 is the gap
 * between ranks 1 and 15 of the lexical list (1/61 - 1/75), like the common-term credit at most: it reorders
 * candidates near each other and never lifts one from the bottom. On the development conversations (every memory a
 * transcript line) it raised hybrid recall@10 from 0.745 to 0.763 and MRR from 0.528 to 0.569, in each of the five
 * conversations; any weight from 0.002 to 0.008 gained (0.754 - 0.768), with or without the common-term credit.
 */
export const LABEL_WEIGHT = 0.003;

/** The words of a memory's label (lower-cased, as `wordsOf` reads them), or null when it has none. */
export function labelWords(content: string): Set<string> | null {
  const label = LABEL.exec(content);
  return label === null ? null : wordsOf(label[1] ?? '');
}

/** The label credit of a candidate for the query's terms: `LABEL_WEIGHT` when its label names one of them, else 0. */
export function labelCredit(candidate: RankedCandidate, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  const words = labelWords(candidate.row.content);
  return words !== null && terms.some((term) => mentionsTerm(words, term)) ? LABEL_WEIGHT : 0;
}
