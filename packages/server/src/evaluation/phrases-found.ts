/** Splits a text into runs: other characters at even indexes, words (letters and digits) at odd ones. */
const WORD_RUNS = /([\p{L}\p{N}]+)/u;
/** Phrase symbols: a character is `code point * 4 + edge bits`; a word is this base plus its number. */
const WORD_SYMBOL_BASE = 0x110000 * 4;
/** A symbol no phrase holds; `NONE` means no state or no symbol. */
const BARRIER = -2;
const NONE = -1;

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
export function phrasesFound(text: string, phrases: readonly string[]): Set<string> {
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
