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
/** Splits a text into runs: other characters at even indexes, words (letters and digits) at odd ones. */
const WORD_RUNS = /([\p{L}\p{N}]+)/u;
/** Phrase symbols: a character is `code point * 4 + edge bits`; a word is this base plus its number. */
const WORD_SYMBOL_BASE = 0x110000 * 4;
/** A symbol no phrase holds; `NONE` means no state or no symbol. */
const BARRIER = -2;
const NONE = -1;
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
 * A normalised text as phrase symbols: a word (run of letters and digits) is one symbol; any other character is one
 * symbol that also records whether the characters before and after it are non-word characters (or the text's edge).
 * A phrase occurs in a text as a whole phrase (starting and ending at a word boundary) exactly when its symbols occur
 * in the text's symbols contiguously: the edge bits of its first and last characters demand the boundaries.
 */
function phraseSymbols(text: string, wordIds: Map<string, number>): number[] {
  const runs = text.split(WORD_RUNS);
  const symbols: number[] = [];
  runs.forEach((run, index) => {
    if (index % 2 === 1) {
      let id = wordIds.get(run);
      if (id === undefined) {
        id = WORD_SYMBOL_BASE + wordIds.size;
        wordIds.set(run, id);
      }
      symbols.push(id);
      return;
    }
    const characters = [...run];
    characters.forEach((character, at) => {
      const before = at > 0 || index === 0 ? 2 : 0;
      const after = at < characters.length - 1 || index === runs.length - 1 ? 1 : 0;
      symbols.push((character.codePointAt(0) ?? 0) * 4 + before + after);
    });
  });
  return symbols;
}

/** Transitions a state keeps in its typed-array slots before the rest go to a Map: most states have one to four. */
const INLINE_TRANSITIONS = 4;

/**
 * The suffix automaton of a symbol sequence: at most 2n states and 3n transitions, built in time linear in n (each
 * symbol adds a state and amortised O(1) transitions); then whether any sequence occurs in it contiguously takes time
 * linear in that sequence. States live in typed arrays sized up front, so building allocates almost nothing.
 */
class SuffixAutomaton {
  private readonly lengths: Int32Array;
  private readonly links: Int32Array;
  private readonly inlineSymbols: Int32Array;
  private readonly inlineTargets: Int32Array;
  private readonly moreTargets = new Map<number, Map<number, number>>();
  private states = 0;

  constructor(symbols: readonly number[]) {
    const capacity = 2 * symbols.length + 2;
    this.lengths = new Int32Array(capacity);
    this.links = new Int32Array(capacity);
    this.inlineSymbols = new Int32Array(capacity * INLINE_TRANSITIONS).fill(NONE);
    this.inlineTargets = new Int32Array(capacity * INLINE_TRANSITIONS);
    let last = this.addState(0, NONE);
    for (const symbol of symbols) last = this.extend(last, symbol);
  }

  /** Whether the symbols occur in the sequence, one after another. */
  contains(symbols: readonly number[]): boolean {
    let state = 0;
    for (const symbol of symbols) {
      state = this.target(state, symbol);
      if (state === NONE) return false;
    }
    return true;
  }

  private target(state: number, symbol: number): number {
    const first = state * INLINE_TRANSITIONS;
    for (let slot = first; slot < first + INLINE_TRANSITIONS; slot += 1) {
      const each = this.inlineSymbols[slot];
      if (each === symbol) return this.inlineTargets[slot]!;
      if (each === NONE) return NONE;
    }
    return this.moreTargets.get(state)?.get(symbol) ?? NONE;
  }

  private setTarget(state: number, symbol: number, target: number): void {
    const first = state * INLINE_TRANSITIONS;
    for (let slot = first; slot < first + INLINE_TRANSITIONS; slot += 1) {
      const each = this.inlineSymbols[slot];
      if (each === symbol || each === NONE) {
        this.inlineSymbols[slot] = symbol;
        this.inlineTargets[slot] = target;
        return;
      }
    }
    let more = this.moreTargets.get(state);
    if (more === undefined) {
      more = new Map();
      this.moreTargets.set(state, more);
    }
    more.set(symbol, target);
  }

  private addState(length: number, link: number): number {
    const state = this.states++;
    this.lengths[state] = length;
    this.links[state] = link;
    return state;
  }

  /** Appends a symbol (the standard online construction); returns the state of the whole sequence. */
  private extend(last: number, symbol: number): number {
    const current = this.addState(this.lengths[last]! + 1, 0);
    let state = last;
    while (state !== NONE && this.target(state, symbol) === NONE) {
      this.setTarget(state, symbol, current);
      state = this.links[state]!;
    }
    if (state === NONE) return current;
    const next = this.target(state, symbol);
    if (this.lengths[state]! + 1 === this.lengths[next]) {
      this.links[current] = next;
      return current;
    }
    const clone = this.addState(this.lengths[state]! + 1, this.links[next]!);
    const from = next * INLINE_TRANSITIONS;
    this.inlineSymbols.copyWithin(clone * INLINE_TRANSITIONS, from, from + INLINE_TRANSITIONS);
    this.inlineTargets.copyWithin(clone * INLINE_TRANSITIONS, from, from + INLINE_TRANSITIONS);
    const more = this.moreTargets.get(next);
    if (more !== undefined) this.moreTargets.set(clone, new Map(more));
    while (state !== NONE && this.target(state, symbol) === next) {
      this.setTarget(state, symbol, clone);
      state = this.links[state]!;
    }
    this.links[next] = clone;
    this.links[current] = clone;
    return current;
  }
}

/**
 * Which of some normalised phrases occur in a normalised text as whole phrases, in time linear in the text plus the
 * phrases (one suffix automaton of the text), where searching for each phrase in turn took phrases x text length.
 * Text symbols that no phrase holds can never be part of a match, so each run of them becomes one barrier symbol.
 */
function phrasesFound(text: string, phrases: readonly string[]): Set<string> {
  if (phrases.length === 0) return new Set();
  const wordIds = new Map<string, number>();
  const wanted = phrases.map((phrase) => ({ phrase, symbols: phraseSymbols(phrase, wordIds) }));
  const useful = new Set(wanted.flatMap((each) => each.symbols));
  const symbols: number[] = [];
  for (const symbol of phraseSymbols(text, wordIds)) {
    if (useful.has(symbol)) symbols.push(symbol);
    else if (symbols.at(-1) !== BARRIER) symbols.push(BARRIER);
  }
  const automaton = new SuffixAutomaton(symbols);
  return new Set(wanted.filter((each) => automaton.contains(each.symbols)).map((each) => each.phrase));
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
