import type { StatementFacts } from './statement-facts.js';
import { canonWord } from './word-relations.js';

/**
 * Guards of the conflict rules (conflict-in-other-words.ts, opposite-states.ts): ways two statements alike in their
 * words speak of two subjects.
 */

/** A substitution this short on both sides, of topic words, is a second subject named in the same frame. */
const MAX_SUBSTITUTION_WORDS = 2;

/**
 * The gaps between two word lists' longest common subsequence: pairs of runs, one from each side, that sit
 * between the same two aligned words.
 */
function gaps(left: readonly string[], right: readonly string[]): Array<[string[], string[]]> {
  // The LCS lengths of every pair of suffixes, in one flat array (row i, column j at i * width + j): two long
  // messages are a few hundred words each, and an array per row put this among the indexer's busiest functions.
  const width = right.length + 1;
  const table = new Int32Array((left.length + 1) * width);
  const at = (i: number, j: number) => table[i * width + j] as number;
  for (let i = left.length - 1; i >= 0; i -= 1)
    for (let j = right.length - 1; j >= 0; j -= 1)
      table[i * width + j] = left[i] === right[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
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
    } else if (j >= right.length || (i < left.length && at(i + 1, j) >= at(i, j + 1))) {
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
export function namesAnotherSubject(older: StatementFacts, newer: StatementFacts): boolean {
  const olderSpeaker = speakerOf(older.words);
  const newerSpeaker = speakerOf(newer.words);
  if (olderSpeaker !== null && newerSpeaker !== null && olderSpeaker !== newerSpeaker) return true;
  if (otherOwners(older, newer)) return true;
  // A word the other statement has too is not a second subject, wherever it stands ("the train to Cardiff" / "the
  // Cardiff train").
  const ownTopic = (facts: StatementFacts, other: StatementFacts) => (word: string) =>
    facts.topic.has(canonWord(word)) && !other.topic.has(canonWord(word));
  // The words a statement opens with name its subject: two statements that open with topic words of their own
  // before any shared word speak of two subjects, however many words each takes ("the [cafeteria at work] closes" /
  // "the [gym] closes").
  const opening = (facts: StatementFacts, other: StatementFacts) => {
    const shared = facts.frame.findIndex(
      (word) => facts.topic.has(canonWord(word)) && other.topic.has(canonWord(word)),
    );
    return facts.frame.slice(0, shared === -1 ? facts.frame.length : shared);
  };
  // (Not when both open with the speaker: "I work from the office" / "I'm hybrid" are both about the speaker.)
  const speaker = olderSpeaker === 'self' && newerSpeaker === 'self';
  if (
    !speaker &&
    opening(older, newer).some(ownTopic(older, newer)) &&
    opening(newer, older).some(ownTopic(newer, older))
  )
    return true;
  return gaps(older.frame, newer.frame).some(
    ([left, right]) =>
      left.length <= MAX_SUBSTITUTION_WORDS &&
      right.length <= MAX_SUBSTITUTION_WORDS &&
      ((left.some(ownTopic(older, newer)) && right.some(ownTopic(newer, older))) || contrastingParticles(left, right)),
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

/** The person of each possessive: "our rent" and "her rent" are two people's. */
const OWNERS: ReadonlyMap<string, number> = new Map([
  ['my', 1],
  ['our', 1],
  ['your', 2],
  ['his', 3],
  ['her', 3],
  ['their', 3],
]);

/** Both statements say whose, and never the same person's ("Her rent is 900" / "Our rent is 1,200"). */
export function otherOwners(older: StatementFacts, newer: StatementFacts): boolean {
  const owners = (facts: StatementFacts) => new Set(facts.words.flatMap((word) => OWNERS.get(word) ?? []));
  const [left, right] = [owners(older), owners(newer)];
  return left.size > 0 && right.size > 0 && ![...left].some((person) => right.has(person));
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
