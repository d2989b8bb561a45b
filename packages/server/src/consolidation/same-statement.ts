import { clausesOf, looksLikeName } from './clause-tokens.js';
import { readFacts, type StatementFacts } from './statement-facts.js';
import { namesAnotherSubject } from './subject-guards.js';
import { canonWord } from './word-relations.js';

/** Fewer topic words than this say too little to be sure two texts state one thing. */
const MIN_TOPIC = 2;

/**
 * Who each personal pronoun names. The speaker's own things ("my", "our") are left out: "our cat" and "the cat" are
 * one cat in one person's memory.
 */
const PERSONS: ReadonlyMap<string, string> = new Map(
  [
    ["i me i'm i've i'd i'll we us we're we've we'd we'll myself ourselves", '1'],
    ["you your yours you're you've you'd you'll yourself", '2'],
    ["he him his he's he'd he'll himself", '3m'],
    ["she her hers she's she'd she'll herself", '3f'],
    ["they them their theirs they're they've they'd they'll themselves", '3p'],
  ].flatMap(([forms = '', person = '']) => forms.split(' ').map((form) => [form, person] as const)),
);

const persons = (facts: StatementFacts) =>
  [...new Set(facts.words.flatMap((word) => PERSONS.get(word) ?? []))].sort().join(' ');

const valuesOf = (facts: StatementFacts) =>
  JSON.stringify([...facts.values.entries()].map(([kind, set]) => [kind, [...set].sort()]).sort());

/** The names a text gives, in order (words written as names that are topic words: "Clara", "Denver"). */
function namesOf(text: string, facts: StatementFacts): string[] {
  const names = clausesOf(text)
    .flatMap((clause) => clause.tokens)
    .filter((token) => looksLikeName(token.raw) && facts.topic.has(canonWord(token.lower)))
    .map((token) => canonWord(token.lower));
  return names.filter((name, index) => names.indexOf(name) === index);
}

/** The topic words of a text in order, each once. */
function ordered(facts: StatementFacts): string[] {
  const words = facts.words.map(canonWord).filter((word) => facts.topic.has(word));
  return words.filter((word, index) => words.indexOf(word) === index);
}

/**
 * Whether two words swap places around a third that stays between them ("the cat chased the dog" / "the dog chased
 * the cat", "Tom reports to Ann" / "Ann reports to Tom"): the roles changed, so the facts differ. A reorder with
 * nothing between ("allergic to peanuts" / "a peanut allergy") is a change of wording.
 */
function rolesSwapped(left: readonly string[], right: readonly string[]): boolean {
  for (let a = 0; a < left.length; a += 1)
    for (let b = a + 2; b < left.length; b += 1) {
      const [ra, rb] = [right.indexOf(left[a] ?? ''), right.indexOf(left[b] ?? '')];
      if (ra <= rb) continue;
      const between = left.slice(a + 1, b).filter((word) => {
        const at = right.indexOf(word);
        return at > rb && at < ra;
      });
      if (between.length > 0) return true;
    }
  return false;
}

/**
 * Whether two texts state one fact in other words, sure enough to merge them (docs/architecture.md#write-side-behaviour):
 * the same topic words once inflection, derivation ("allergic" / "allergy"), synonyms and clippings are folded
 * (word-relations.ts), at least two of them; the same values of every kind after normalisation ("twelve years old" /
 * "12", "9:30" / "half past nine"); the same polarity; the same people (pronouns); the same names in the same order;
 * no two words that swap roles; the same tense of events; and no sign of a second subject (subject-guards.ts). A
 * missed merge shows one fact twice; a wrong one loses a memory, so anything less than all of this is no.
 */
export function sameStatement(olderText: string, newerText: string): boolean {
  const [older, newer] = [readFacts(olderText), readFacts(newerText)];
  if (older.topic.size < MIN_TOPIC || older.topic.size !== newer.topic.size) return false;
  if (![...older.topic].every((word) => newer.topic.has(word))) return false;
  if (older.negated !== newer.negated || older.negatesValue !== newer.negatesValue) return false;
  if (older.pastEvent !== newer.pastEvent || persons(older) !== persons(newer)) return false;
  if (valuesOf(older) !== valuesOf(newer)) return false;
  if (namesOf(olderText, older).join(' ') !== namesOf(newerText, newer).join(' ')) return false;
  if (rolesSwapped(ordered(older), ordered(newer))) return false;
  return !namesAnotherSubject(older, newer);
}
