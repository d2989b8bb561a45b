import { type Clause, clausesOf, looksLikeName, speakerLabel, type Token } from './clause-tokens.js';
import {
  BE_FORMS,
  CLAUSE_BREAKS,
  DEFINITE,
  DEGREE_LEVELS,
  HEDGES,
  MANY_INSTANCE_NOUNS,
  PAST_BE,
  PERSON_NOUNS,
  RELATION_CLASSES,
  RELATIVE_WORDS,
  SEAT_NOUNS,
  SINGLE_CHOICE,
  SPEAKERS,
  TIME_WORDS,
} from './frame-words.js';
import { foldWord } from './statement-facts.js';
import { kindOf } from './statement-words.js';

/** A single-valued statement: a subject, a relation it holds one value of at a time, and that value. */
export interface Frame {
  /** The subject's words, lower-cased ("my sister", "the conference", "i", "hannah"). */
  subject: string;
  /** The relation's class (frame-words.ts), e.g. `lives in`. */
  relation: string;
  /** The value as written ("Portland", "Google Cloud"). */
  value: string;
  /** The value's words, lower-cased and folded, for comparing two values. */
  valueWords: ReadonlySet<string>;
  /** The clause's words that place it in time, sorted: two frames at different times do not conflict. */
  when: string;
}

const NEGATIONS = new Set(['not', 'no', 'never', 'nobody', 'none', 'nothing', 'nowhere']);
/** Adverbs allowed between a form of "be" and the rest of the relation ("is now based in", "is being held in"). */
const BETWEEN = new Set(['now', 'currently', 'still', 'actually', 'really', 'being', 'be', 'been', 'officially']);
/** Words that open a clause without being its subject. */
const OPENERS = new Set(['and', 'but', 'so', 'now', 'currently', 'today', 'well', 'oh', 'anyway', 'actually']);
/** Capitalised words that open a sentence without naming anything. */
const NOT_NAMES = new Set(
  'everything everyone everybody someone somebody something nobody nothing anyone anything it there here this that these those they he she you what which who today now'.split(
    ' ',
  ),
);
const ARTICLES = new Set(['the', 'a', 'an']);
/** Determiners of the speaker's things, dropped from a subject's key. */
const SPEAKERS_THINGS = new Set(['the', 'this', 'my', 'our']);
const CONNECTORS = new Set(['of', 'de', 'du', 'la', 'le', 'von', 'van', 'del', '&']);
const MAX_SUBJECT_WORDS = 5;
const MAX_VALUE_WORDS = 5;

/** The subject before a verb, when it names one thing: the speaker, a definite description or a name. */
export function subjectOf(words: readonly Token[]): { key: string; definite: boolean } | null {
  let start = 0;
  while (start < words.length && OPENERS.has(words[start]?.lower ?? '')) start += 1;
  // Adverbs inside ("my sister currently lives in") and auxiliaries at the end ("I'm working at") are not the subject.
  const subject = words.slice(start).filter((word) => !BETWEEN.has(word.lower));
  while (subject.length > 0 && BE_FORMS.has(subject.at(-1)?.lower ?? '')) subject.pop();
  // "My brother's living in": a final "'s" is "is", not a possessive.
  const last = subject.at(-1);
  if (last !== undefined && /'s$/.test(last.lower))
    subject[subject.length - 1] = { raw: last.raw.slice(0, -2), lower: last.lower.slice(0, -2) };
  if (subject.length === 0 || subject.length > MAX_SUBJECT_WORDS) return null;
  const lower = subject.map((word) => word.lower);
  if (lower.some((word) => RELATIVE_WORDS.has(word) || BE_FORMS.has(word) || PAST_BE.has(word) || kindOf(word)))
    return null;
  // "the rent", "our rent" and "my rent" are one thing in one person's memory; "her rent" is another's.
  const key = lower.filter((word) => !SPEAKERS_THINGS.has(word)).join(' ');
  const first = lower[0] ?? '';
  if (SPEAKERS.has(first)) return subject.length === 1 ? { key, definite: false } : null;
  if (DEFINITE.has(first)) return subject.length >= 2 ? { key, definite: true } : null;
  // A name: every word written as one ("Hannah", "Acme Corp", "Sam's"), never a pronoun or "everything".
  if (NOT_NAMES.has(first) || !subject.every((word) => looksLikeName(word.raw))) return null;
  return { key, definite: false };
}

/** A relation phrase split once: its class, its words after "be" (or all of them), and whether it needs "be". */
interface RelationPhrase {
  relation: string;
  phrase: string;
  words: readonly string[];
  afterBe: boolean;
}

/**
 * The relation phrases by their first word (after "be" for those that need it), split once: a clause is read word by
 * word, and a long message has hundreds of words, so each word looks up the few phrases that can start with it
 * instead of splitting and trying all of them.
 */
const PHRASES_BY_FIRST_WORD: ReadonlyMap<string, readonly RelationPhrase[]> = (() => {
  const byFirst = new Map<string, RelationPhrase[]>();
  for (const { relation, phrases } of RELATION_CLASSES) {
    for (const phrase of phrases) {
      const split = phrase.split(' ');
      const afterBe = split[0] === 'be';
      const words = afterBe ? split.slice(1) : split;
      const first = words[0] ?? '';
      byFirst.set(first, [...(byFirst.get(first) ?? []), { relation, phrase, words, afterBe }]);
    }
  }
  return byFirst;
})();
const BARE_BE = PHRASES_BY_FIRST_WORD.get('') ?? [];

/** The longest relation phrase whose words start at `from`, among those that need "be" (`afterBe`) or not. */
function longestPhraseAt(tokens: readonly Token[], from: number, afterBe: boolean) {
  let best: { relation: string; phrase: string; end: number } | null = null;
  // A phrase of no words after "be" (the plain "is") matches wherever "be" does; any longer match beats it.
  for (const candidates of [PHRASES_BY_FIRST_WORD.get(tokens[from]?.lower ?? ''), afterBe ? BARE_BE : undefined])
    for (const candidate of candidates ?? []) {
      if (candidate.afterBe !== afterBe) continue;
      if (!candidate.words.every((word, offset) => tokens[from + offset]?.lower === word)) continue;
      const end = from + candidate.words.length;
      if (best === null || end > best.end) best = { relation: candidate.relation, phrase: candidate.phrase, end };
    }
  return best;
}

/** The relation starting at `index`: its class and where its value starts, or null. */
function relationAt(tokens: readonly Token[], index: number) {
  const plain = longestPhraseAt(tokens, index, false);
  if (!BE_FORMS.has(tokens[index]?.lower ?? '')) return plain;
  let after = index + 1;
  while (BETWEEN.has(tokens[after]?.lower ?? '')) after += 1;
  const withBe = longestPhraseAt(tokens, after, true);
  return plain === null || (withBe !== null && withBe.end > plain.end) ? withBe : plain;
}

/** The value at `start`: a name (words written as names), or, when `open`, any short noun phrase. */
function valueAt(tokens: readonly Token[], start: number, open: boolean): Token[] | null {
  let index = start;
  if (ARTICLES.has(tokens[index]?.lower ?? '')) index += 1;
  const value: Token[] = [];
  for (; index < tokens.length && value.length <= MAX_VALUE_WORDS; index += 1) {
    const token = tokens[index] as Token;
    const name = looksLikeName(token.raw) && token.lower !== 'i' && kindOf(token.lower) === null;
    const connector = value.length > 0 && CONNECTORS.has(token.lower) && looksLikeName(tokens[index + 1]?.raw ?? '');
    const plain = open && !CLAUSE_BREAKS.has(token.lower) && !ARTICLES.has(token.lower) && kindOf(token.lower) === null;
    if (!(name || connector || plain)) break;
    value.push(token);
  }
  if (value.length === 0 || value.length > MAX_VALUE_WORDS) return null;
  // "Denver or Boulder", "Denver and Austin": alternatives or a list are not one value.
  const next = tokens[index]?.lower ?? '';
  if ((next === 'or' || next === 'and') && looksLikeName(tokens[index + 1]?.raw ?? '')) return null;
  if (next === 'or') return null;
  return value;
}

/**
 * "Our parrot's name is Mango" says what the parrot is called; "Acme's headquarters are in Oslo" where Acme is based
 * (`seat`: a company is somewhere for good, unlike a person who "is in" a city this week).
 */
function namedSubject(subject: ReturnType<typeof subjectOf>, relation: string) {
  if (subject === null) return null;
  const words = subject.key.split(' ');
  const owner = words.at(-2);
  if (owner === undefined || !owner.endsWith("'s")) return { subject, relation, seat: false };
  const key = [...words.slice(0, -2), owner.slice(0, -2)].join(' ');
  if (relation === 'is' && words.at(-1) === 'name')
    return { subject: { ...subject, key }, relation: 'is called', seat: false };
  if (relation === 'takes place in' && SEAT_NOUNS.has(words.at(-1) ?? ''))
    return { subject: { ...subject, key }, relation: 'lives in', seat: true };
  return { subject, relation, seat: false };
}

/** "moved to" and "relocated to" state where one is now, whenever the move was. */
const CHANGES = new Set(['moved to', 'relocated to']);

/** The frame of the relation found at `index`, or null when its subject or value is not one thing. */
function frameAt(
  tokens: readonly Token[],
  index: number,
  found: NonNullable<ReturnType<typeof relationAt>>,
): Omit<Frame, 'when'> | null {
  const lower = tokens.map((token) => token.lower);
  // "will live in" is a plan beside the present; "will be held in" is where an event stands now.
  if (lower.includes('will') && found.relation !== 'takes place in') return null;
  const named = namedSubject(subjectOf(tokens.slice(0, index)), found.relation);
  if (named === null) return null;
  const { subject, relation, seat } = named;
  if (relation === 'graduated from' && lower.some((word) => DEGREE_LEVELS.has(word))) return null;
  const before = lower.slice(0, index);
  // "is" and "is called" are single-valued only of a definite subject that is not one of many ("my friend").
  const identity = relation === 'is' || relation === 'is called';
  const choice = before.some((word) => SINGLE_CHOICE.has(word));
  const many = before.some((word) => MANY_INSTANCE_NOUNS.has(word.replace(/'s$/, '')));
  if (identity && (!subject.definite || (many && !choice))) return null;
  // A plain "is in" places an event or a thing; a person or a name (maybe a person) is somewhere for a while.
  const person = before.some((word) => PERSON_NOUNS.has(word.replace(/'s$/, '')));
  if (found.phrase === 'be in' && !seat && (!subject.definite || person)) return null;
  const value = valueAt(tokens, found.end, relation === 'is' && choice);
  if (value === null) return null;
  const valueWords = new Set(value.map((token) => foldWord(token.lower)));
  return { subject: subject.key, relation, value: value.map((token) => token.raw).join(' '), valueWords };
}

function framesOfClause({ tokens, question }: Clause): Frame[] {
  const lower = tokens.map((token) => token.lower);
  if (question || lower.some((word) => NEGATIONS.has(word) || HEDGES.has(word))) return [];
  const when = lower
    .filter((word) => TIME_WORDS.has(word) || ['#', '<weekday>', '<month>'].includes(kindOf(word) ?? ''))
    .sort()
    .join(' ');
  for (let index = 1; index < tokens.length; index += 1) {
    if (PAST_BE.has(lower[index] ?? '')) return [];
    const found = relationAt(tokens, index);
    if (found === null) continue;
    const frame = frameAt(tokens, index, found);
    // A bare "is" that states no single value ("I'm working at", "Alice is vegetarian") hands over to the next verb.
    if (frame === null && found.relation === 'is') continue;
    return frame === null ? [] : [{ ...frame, when: CHANGES.has(found.phrase) ? '' : when }];
  }
  return [];
}

/**
 * The single-valued frames a text states (docs/architecture.md#write-side-behaviour): in each clause that is not a
 * question, not negated and not hedged ("might", "also", "used to", "if"), a subject that names one thing (the
 * speaker, a definite description such as "my sister" or "the conference", or a name), then a relation of one value
 * at a time (frame-words.ts: lives in, is held in, is hosted on, works at, reports to, is written in, is married to,
 * is called; a plain "is" only of a definite subject that is not one of many), then its value: a name ("Denver",
 * "Google Cloud"), or any short noun phrase after a subject such as "my favourite food". Under a speaker's label
 * ("Caroline: I live in Boston") subjects are that speaker's.
 */
export function readFrames(text: string): Frame[] {
  const speaker = speakerLabel(text);
  const frames = clausesOf(text).flatMap(framesOfClause);
  return speaker === '' ? frames : frames.map((frame) => ({ ...frame, subject: `${speaker}: ${frame.subject}` }));
}
