import { foldWord, readFacts, type StatementFacts } from './statement-facts.js';

/** Why two memories in other words were judged to conflict: a value of one kind changed, or one negates the other. */
export type ConflictReason =
  | { kind: 'value_changed'; valueKind: string; older: string[]; newer: string[]; topic: string[] }
  | { kind: 'negated'; topic: string[] };

/** The share of the smaller side's topic words the two must have in common to speak of one subject. */
const SUBJECT_SHARE = 0.5;

/** A substitution this short on both sides, of topic words, is a second subject named in the same frame. */
const MAX_SUBSTITUTION_WORDS = 2;

/**
 * The gaps between two word lists' longest common subsequence: pairs of runs, one from each side, that sit
 * between the same two aligned words.
 */
function gaps(left: readonly string[], right: readonly string[]): Array<[string[], string[]]> {
  const table = Array.from({ length: left.length + 1 }, () => new Array<number>(right.length + 1).fill(0));
  for (let i = left.length - 1; i >= 0; i -= 1)
    for (let j = right.length - 1; j >= 0; j -= 1)
      table[i]![j] = left[i] === right[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const found: Array<[string[], string[]]> = [];
  let pending: [string[], string[]] = [[], []];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i] === right[j]) {
      if (pending[0].length > 0 || pending[1].length > 0) found.push(pending);
      pending = [[], []];
      i += 1;
      j += 1;
    } else if (j >= right.length || (i < left.length && table[i + 1]![j]! >= table[i]![j + 1]!)) {
      pending[0].push(left[i]!);
      i += 1;
    } else {
      pending[1].push(right[j]!);
      j += 1;
    }
  }
  if (pending[0].length > 0 || pending[1].length > 0) found.push(pending);
  return found;
}

/**
 * Whether the two name different subjects in one frame: some gap between their aligned words swaps one or two
 * topic words for one or two others ("my [sister] lives in Paris" / "my [brother] lives in Rome", "the [frontend]
 * deploys" / "the [backend] deploys"). Values are aligned by kind first, so a changed value is never such a gap.
 */
function namesAnotherSubject(older: StatementFacts, newer: StatementFacts): boolean {
  const olderSpeaker = speakerOf(older.words);
  const newerSpeaker = speakerOf(newer.words);
  if (olderSpeaker !== null && newerSpeaker !== null && olderSpeaker !== newerSpeaker) return true;
  const isTopic = (facts: StatementFacts) => (word: string) => facts.topic.has(foldWord(word));
  return gaps(older.frame, newer.frame).some(
    ([left, right]) =>
      left.length <= MAX_SUBSTITUTION_WORDS &&
      right.length <= MAX_SUBSTITUTION_WORDS &&
      ((left.some(isTopic(older)) && right.some(isTopic(newer))) || contrastingParticles(left, right)),
  );
}

/**
 * Direction particles: two of them facing each other name two legs or two states ("flight out" / "flight back",
 * "flight to Paris" / "flight back from Paris").
 */
const PARTICLES: ReadonlySet<string> = new Set([
  'on',
  'off',
  'in',
  'out',
  'up',
  'down',
  'back',
  'away',
  'over',
  'to',
  'from',
]);

function contrastingParticles(left: readonly string[], right: readonly string[]): boolean {
  const own = left.filter((word) => PARTICLES.has(word));
  return own.length > 0 && right.some((word) => PARTICLES.has(word) && !own.includes(word));
}

/**
 * Who a statement is about when it opens with a person: the speaker (`I ...`, `we ...`) or someone or something of
 * theirs (`my partner ...`, `her ...`); null otherwise. "I'm 34" and "My partner is 36" are about two people.
 */
function speakerOf(words: readonly string[]): 'self' | 'other' | null {
  const first = words[0] ?? '';
  if (SELF.has(first)) return 'self';
  if (OTHER.has(first)) return 'other';
  return null;
}
const SELF: ReadonlySet<string> = new Set("i i'm i've i'd i'll we we're we've we'd we'll".split(' '));
const OTHER: ReadonlySet<string> = new Set("my our your his her their he she they he's she's they're".split(' '));

/**
 * Whether a newer memory contradicts an older one that it words differently (docs/architecture.md#write-side-behaviour).
 * The vector index proposes the pair (its nearest neighbours are the memories about the same thing, whatever their
 * words); this rule decides, deterministically, and says no when in doubt: a missed conflict leaves two memories
 * side by side as before, a wrong one tells the model a true memory is disputed. A conflict is
 * - **a changed value**: both give a value of one closed kind (a weekday, a month, a clock time, a colour, a
 *   switch, or a number counting the same thing) and no value of that kind in common ("Deploys go out on
 *   Wednesdays" / "The team deploys on Fridays now"), at least half the topic words of the shorter one are the
 *   other's too, and neither names a second subject in the same frame; or
 * - **a negation**: one negates what the other states, every topic word of the shorter one in the longer ("I drink
 *   coffee" / "I don't drink coffee anymore").
 * Two reports of past events on different days are not a conflict (events recur: "I went running on Monday" and
 * "... on Tuesday" are both true) unless the newer says it changes something ("moved", "now", "instead").
 */
export function conflictInOtherWords(olderText: string, newerText: string): ConflictReason | null {
  const older = readFacts(olderText);
  const newer = readFacts(newerText);
  const shared = [...older.topic].filter((word) => newer.topic.has(word));
  // One shared word among many is a shared topic, not a shared subject ("rent is due" / "the bill is due").
  if (shared.length === 0 || shared.length < SUBJECT_SHARE * Math.min(older.topic.size, newer.topic.size)) return null;
  if (namesAnotherSubject(older, newer)) return null;
  const events = older.pastEvent && newer.pastEvent && !newer.updates;
  if (older.negated !== newer.negated) {
    const [shorter, longer] = older.topic.size <= newer.topic.size ? [older, newer] : [newer, older];
    if ([...shorter.topic].every((word) => longer.topic.has(word)) && !events)
      return { kind: 'negated', topic: shared };
  }
  if (events) return null;
  for (const [valueKind, olderValues] of older.values) {
    const newerValues = newer.values.get(valueKind);
    if (newerValues === undefined) continue;
    if ([...olderValues].some((value) => newerValues.has(value))) continue;
    return { kind: 'value_changed', valueKind, older: [...olderValues], newer: [...newerValues], topic: shared };
  }
  return null;
}

/** How sure a conflict in other words is: a negation of the same words more than a changed value. */
export function conflictConfidence(reason: ConflictReason): number {
  return reason.kind === 'negated' ? 0.8 : 0.7;
}
