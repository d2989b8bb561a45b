import { phrasesFound } from './phrases-found.js';

/** A pass/warn/fail verdict. */
export type EvalStatus = 'pass' | 'warn' | 'fail';

/** Extraction counts and scores of one case or of all cases together. */
export interface ExtractionScore {
  precision: number;
  recall: number;
  f1: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

/** How far below a threshold a score still only warns. */
export const WARN_MARGIN = 0.1;
const EPSILON = 1e-9;
/** Stripped from the end of a normalised text (whitespace is a single space by then). */
const TRAILING_PUNCTUATION = new Set(' .,;:!?…。．，、；：！？');
const WORD = /[\p{L}\p{N}]+/gu;
/** Words that carry no fact on their own; negations are kept, since they flip a fact. */
const STOP_WORDS = new Set(
  'a an the and or of to in on at for with by from into as is are was were be been being it its this that these those there then than so do does did has have had will would can could should may might i you he she we they our your their my his her them us me'.split(
    ' ',
  ),
);

/** NFKC, lower case, whitespace collapsed and trimmed, trailing punctuation (. , ; : ! ? …) stripped. */
export function normalizeText(text: string): string {
  const collapsed = text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  // A loop, not a `[...]+$` regex: that one backtracks quadratically on a long run of punctuation mid-text.
  let end = collapsed.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(collapsed.charAt(end - 1))) end -= 1;
  return collapsed.slice(0, end);
}

/** Rounds a score to 4 decimals: reports and verdicts use the same number. */
export function roundScore(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Precision, recall and F1 from counts; nothing expected and nothing observed is a perfect 1. */
export function scoreCounts(truePositives: number, falsePositives: number, falseNegatives: number): ExtractionScore {
  const observed = truePositives + falsePositives;
  const expected = truePositives + falseNegatives;
  const precision = observed === 0 ? (expected === 0 ? 1 : 0) : truePositives / observed;
  const recall = expected === 0 ? (observed === 0 ? 1 : 0) : truePositives / expected;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    precision: roundScore(precision),
    recall: roundScore(recall),
    f1: roundScore(f1),
    truePositives,
    falsePositives,
    falseNegatives,
  };
}

function multiset(items: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const key = normalizeText(item);
    if (key !== '') counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Multiset matching of normalised strings: each expected item matches at most one equal observed item. */
export function scoreExtraction(expected: readonly string[], observed: readonly string[]): ExtractionScore {
  const expectedCounts = multiset(expected);
  const observedCounts = multiset(observed);
  let matched = 0;
  for (const [key, times] of expectedCounts) matched += Math.min(times, observedCounts.get(key) ?? 0);
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, value) => sum + value, 0);
  return scoreCounts(matched, total(observedCounts) - matched, total(expectedCounts) - matched);
}

/**
 * Retention of required facts by a summary; facts that normalise to nothing are not counted. A fact is kept when
 * every content word of it (its words minus stop words) is among the summary's words, or, for a fact of stop words
 * only, when it appears in the summary as a whole phrase. (A fact found as a phrase has all its words in the summary,
 * so for a fact with content words the phrase test adds nothing.) Linear in the facts plus the summary.
 */
export function scoreRetention(requiredFacts: readonly string[], summary: string) {
  const normalizedSummary = normalizeText(summary);
  const summaryWords = new Set(normalizedSummary.match(WORD) ?? []);
  const facts = requiredFacts
    .map((fact) => {
      const normalized = normalizeText(fact);
      const contentWords = (normalized.match(WORD) ?? []).filter((word) => !STOP_WORDS.has(word));
      return { fact, normalized, contentWords };
    })
    .filter((entry) => entry.normalized !== '');
  const phraseOnly = facts.filter((entry) => entry.contentWords.length === 0).map((entry) => entry.normalized);
  const found = phrasesFound(normalizedSummary, phraseOnly);
  const kept = (entry: (typeof facts)[number]) =>
    entry.contentWords.length > 0
      ? entry.contentWords.every((word) => summaryWords.has(word))
      : found.has(entry.normalized);
  const missing = facts.filter((entry) => !kept(entry)).map((entry) => entry.fact);
  const retained = facts.length - missing.length;
  return {
    retention: facts.length === 0 ? 1 : roundScore(retained / facts.length),
    retained,
    required: facts.length,
    missing,
  };
}

/** Pass at or above the threshold, warn within `WARN_MARGIN` below it, else fail. */
export function grade(value: number, threshold: number): EvalStatus {
  if (value >= threshold - EPSILON) return 'pass';
  return value >= threshold - WARN_MARGIN - EPSILON ? 'warn' : 'fail';
}

/** The worst of some verdicts (pass when there are none). */
export function worst(statuses: readonly EvalStatus[]): EvalStatus {
  if (statuses.includes('fail')) return 'fail';
  return statuses.includes('warn') ? 'warn' : 'pass';
}
