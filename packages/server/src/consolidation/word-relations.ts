/**
 * Relations between words that two wordings of one statement use (conflict-in-other-words.ts, statement-facts.ts):
 * synonyms and clippings folded to one word, and opposite states. General English, small and closed on purpose: a
 * pair missing here costs a missed conflict, a pair that is not one in every sense could cost a true memory.
 */

/** The suffix fold statement-facts.ts applies (kept here so the lists below fold the same way). */
export function foldWord(word: string): string {
  if (word.length <= 4 || /\p{N}/u.test(word)) return word;
  for (const suffix of ['ments', 'ment', 'ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'ic', 'ed', 'es', 's', 'y']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) {
      const stem = word.slice(0, -suffix.length);
      return stem.endsWith('e') ? stem.slice(0, -1) : stem;
    }
  }
  return word.endsWith('e') ? word.slice(0, -1) : word;
}

/**
 * Words of one meaning in every sense they share (first of each group is the canonical one): verbs of schedules
 * (a train that departs leaves), kinship words and their familiar forms, and clipped nouns ("repo", "photo").
 */
const SYNONYM_GROUPS: readonly string[] = [
  'leave leaves leaving depart departs departing departed',
  'start starts starting begin begins beginning began commence commences',
  'close closes closing shut shuts',
  'end ends ending finish finishes conclude concludes',
  'buy buys purchase purchases purchased',
  'grandmother grandmothers grandma grandmas granny gran nan nana nanna',
  'grandfather grandfathers grandpa grandpas granddad grandad gramps',
  'mother mom mum mummy mommy',
  'father dad daddy',
  'child kid',
  'children kids',
  'repository repositories repo repos',
  'photograph photographs photo photos',
  'laboratory laboratories lab labs',
  'examination examinations exam exams',
  'telephone phone',
  'refrigerator fridge',
  'bicycle bike',
  'mathematics maths math',
  'veterinarian vet',
  'university uni',
];

const CANONICAL: ReadonlyMap<string, string> = new Map(
  SYNONYM_GROUPS.flatMap((group) => {
    const [head = '', ...rest] = group.split(' ');
    return [head, ...rest].map((word) => [foldWord(word), foldWord(head)] as const);
  }),
);

/** A word's fold, synonyms and clippings folded to one ("departs" and "leaves", "grandma" and "grandmother"). */
export function canonWord(word: string): string {
  const folded = foldWord(word);
  return CANONICAL.get(folded) ?? folded;
}

/**
 * States of a thing that exclude each other, as [state, opposite] (folded): a budget approved and rejected, an
 * invoice paid and unpaid. A state and its prefixed opposite ("available" / "unavailable") need no entry.
 */
const OPPOSITE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['approved', 'rejected'],
  ['approved', 'denied'],
  ['accepted', 'rejected'],
  ['accepted', 'declined'],
  ['granted', 'denied'],
  ['passed', 'failed'],
  ['confirmed', 'cancelled'],
  ['confirmed', 'canceled'],
  ['open', 'closed'],
  ['alive', 'dead'],
  ['present', 'absent'],
  ['public', 'private'],
  ['indoor', 'outdoor'],
  ['included', 'excluded'],
].map(([state = '', opposite = '']) => [foldWord(state), foldWord(opposite)] as const);

/** Prefixes that make an adjective or participle its opposite ("unpaid", "illegal", "dissatisfied", "non-binding"). */
const NEGATING_PREFIXES = ['un', 'in', 'im', 'il', 'ir', 'dis', 'non'];
/** Endings of adjectives and participles: "un" + "informed" is an opposite, "in" + "form" is another word. */
const STATE_ENDING = /(?:ed|id|able|ible|al|ive|ent|ant|ful|ar|ic|ure|ous|wn)$/;

/**
 * Whether two words (as written, lower-cased) name opposite states of one thing: a listed pair ("approved" /
 * "rejected"), or a word and the same word with a negating prefix ("paid" / "unpaid", "locked" / "unlocked", "legal"
 * / "illegal"), the base an adjective or participle of 4 letters or more.
 */
export function oppositeStates(left: string, right: string): boolean {
  const [leftFold, rightFold] = [foldWord(left), foldWord(right)];
  if (leftFold === rightFold) return false;
  const listed = ([state, opposite]: readonly [string, string]) =>
    (state === leftFold && opposite === rightFold) || (state === rightFold && opposite === leftFold);
  if (OPPOSITE_PAIRS.some(listed)) return true;
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  if (shorter.length < 4 || !STATE_ENDING.test(shorter)) return false;
  return NEGATING_PREFIXES.some((prefix) => longer === `${prefix}${shorter}`);
}
