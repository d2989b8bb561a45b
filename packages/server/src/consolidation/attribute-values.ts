/**
 * Values of attributes that hold one value at a time, read from a statement's words (statement-facts.ts): an age,
 * which way a thing faces, a side (left- or right-handed). Each is a closed kind, like a weekday or a colour: two
 * values of one kind of one subject cannot both be true now.
 */

/** A value read from a statement's words, with the span of words it took. */
export interface AttributeValue {
  kind: '#age' | '<direction>' | '<side>';
  value: string;
  from: number;
  to: number;
}

const COMPASS = new Set('north south east west northeast northwest southeast southwest'.split(' '));
const FACING = new Set(['face', 'faces', 'facing', 'faced']);
/** Forms of "be" (and "turned") after which a bare number ending the statement is an age: "Grandma is 87". */
const AGE_VERBS = new Set(['is', "'s", 'am', 'are', "i'm", "he's", "she's", "we're", "they're", 'turned', 'turns']);
/** Words that may end a statement after an age without making the number something else ("is 34 now"). */
const AGE_TAIL = new Set(['now', 'today', 'already', 'this', 'year']);
const MAX_AGE = 130;

/** Numbers spelled as one word ("twelve", "forty"), for ages said in words. */
const SPELLED: ReadonlyMap<string, number> = new Map([
  ...'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'
    .split(' ')
    .map((word, index) => [word, index + 1] as const),
  ...'thirty forty fifty sixty seventy eighty ninety'
    .split(' ')
    .map((word, index) => [word, (index + 3) * 10] as const),
]);

function age(word: string | undefined): string | null {
  if (word === undefined) return null;
  const spelled = SPELLED.get(word);
  if (spelled !== undefined) return String(spelled);
  if (!/^\d{1,3}$/.test(word)) return null;
  return Number(word) <= MAX_AGE ? String(Number(word)) : null;
}

/**
 * An age at `index`: "87 years old", "a 12-year-old", "aged 40", or a bare number after "is" that ends the
 * statement ("Grandma is 87", "I'm 34 now"). Durations ("for 3 years") and points in time ("3 years ago") are not.
 */
function ageAt(words: readonly string[], index: number): AttributeValue | null {
  const word = words[index] ?? '';
  const hyphenated = /^(\d{1,3})-years?$/.exec(word);
  if (hyphenated !== null && words[index + 1] === 'old')
    return { kind: '#age', value: String(Number(hyphenated[1])), from: index, to: index + 1 };
  const value = age(word);
  if (value === null) return null;
  if ((words[index + 1] === 'years' || words[index + 1] === 'year') && words[index + 2] === 'old')
    return { kind: '#age', value, from: index, to: index + 2 };
  if (words[index - 1] === 'aged') return { kind: '#age', value, from: index - 1, to: index };
  const rest = words.slice(index + 1);
  if (AGE_VERBS.has(words[index - 1] ?? '') && rest.every((each) => AGE_TAIL.has(each)))
    return { kind: '#age', value, from: index, to: index };
  return null;
}

/**
 * The attribute values of a statement's words, in order: ages, a compass direction next to "face" ("faces south",
 * "north-facing"), and a side before "handed" ("left-handed").
 */
export function readAttributeValues(words: readonly string[]): AttributeValue[] {
  const found: AttributeValue[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    const aged = ageAt(words, index);
    if (aged !== null) {
      found.push(aged);
      index = aged.to;
      continue;
    }
    if (COMPASS.has(word) && (FACING.has(words[index - 1] ?? '') || FACING.has(words[index + 1] ?? '')))
      found.push({ kind: '<direction>', value: word, from: index, to: index });
    if ((word === 'left' || word === 'right') && words[index + 1] === 'handed')
      found.push({ kind: '<side>', value: word, from: index, to: index });
  }
  return found;
}

/** Two-word phrases said in other words, rewritten to one wording: the relation they state is the same. */
const PHRASES: ReadonlyMap<string, readonly [string, string]> = new Map([
  // "open until 4 pm" says when a place closes.
  ['open until', ['closes', 'at']],
  ['open till', ['closes', 'at']],
  // Where one lives or a thing is based ("based on" is another relation and stays).
  ['based in', ['lives', 'in']],
  ['resides in', ['lives', 'in']],
  ['reside in', ['live', 'in']],
]);

/** The words with phrases of one relation rewritten to one wording ("open until 4 pm" -> "closes at 4 pm"). */
export function rewritePhrases(words: readonly string[]): string[] {
  const out = [...words];
  for (let index = 0; index + 1 < out.length; index += 1) {
    const phrase = PHRASES.get(`${out[index]} ${out[index + 1]}`);
    if (phrase !== undefined) [out[index], out[index + 1]] = phrase;
  }
  return out;
}
