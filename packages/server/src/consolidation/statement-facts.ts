import { readAttributeValues, rewritePhrases } from './attribute-values.js';
import { FILLERS, kindOf, relationOf } from './statement-words.js';
import { readTimeAmounts } from './time-amounts.js';
import { canonWord, foldWord } from './word-relations.js';

/**
 * What a memory states, read for comparison with another memory of the same subject written in other words
 * (conflict-in-other-words.ts): its topic words, the values it gives, by kind, and whether it negates.
 */
export interface StatementFacts {
  /** Lower-cased words in order, edge punctuation dropped. */
  words: readonly string[];
  /** The words in order with each value replaced by its kind, so two values of one slot line up. */
  frame: readonly string[];
  /** Topic words, folded (`deploys`, `deployed`, `deployment` -> `deploy`): no values, fillers or function words. */
  topic: ReadonlySet<string>;
  /** Values by kind (`<weekday>`, `<month>`, `<colour>`, `<switch>`, `<time>`, `#<unit>`), normalised. */
  values: ReadonlyMap<string, ReadonlySet<string>>;
  /** A negation (not, never, no, n't, no longer...) of what the text states. */
  negated: boolean;
  /** A negation of a value only ("two weeks, not three", "at 5, not 6"): the statement itself stands. */
  negatesValue: boolean;
  /** The text says it changes something ("now", "moved to", "switched", "no longer", "instead"...). */
  updates: boolean;
  /** The text reports a past event ("went", "visited", "had a call") rather than a standing state or habit. */
  pastEvent: boolean;
}

/** Function words that carry no topic (pronouns, prepositions, conjunctions, auxiliaries). */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `i me we us you he him she her it they them i'm i've i'd we're we've you're he's she's it's they're who whom
  what which when where why how in on at to of for from by with about into onto over under after before between
  during until since than then so and or but if as because while also too very much many more most some any
  all each every both either neither there here be is are was were am been being do does did done have has had
  having will would shall should can could may might must let lets get gets got go goes went gone going
  one thing things lot bit kind sort way out up off each per`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that negate what a sentence says. */
const NEGATIONS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'nowhere']);

/** Words by which a speaker marks a statement as replacing an earlier one. */
const UPDATE_WORDS: ReadonlySet<string> = new Set(
  'now anymore longer instead moved switched changed replaced rescheduled postponed renamed updated became become new newly'.split(
    ' ',
  ),
);

/** Irregular past forms of common verbs of events; regular ones end in -ed. */
const PAST_FORMS: ReadonlySet<string> = new Set(
  'went was were had did met ran ate saw took got came made said told bought left flew drove gave found spent wrote read heard sat won lost began'.split(
    ' ',
  ),
);

/** Present forms of "be": a participle after one is the present passive. */
const PRESENT_BE: ReadonlySet<string> = new Set(['is', 'are', 'am']);

/**
 * Whether the word at `index` follows a present form of "be", with at most `not` or one adverb in -ly between: the
 * present passive ("the API is versioned in the path", "bins are collected on Tuesdays", "it is not needed") states
 * how things stand, it reports no past event.
 */
function presentPassive(words: readonly string[], index: number): boolean {
  for (let at = index - 1; at >= Math.max(0, index - 2); at -= 1) {
    const word = words[at] ?? '';
    if (PRESENT_BE.has(word)) return true;
    if (word !== 'not' && !(word.length > 4 && word.endsWith('ly'))) return false;
  }
  return false;
}

/** Weekday and month spellings folded to one value (`fri`, `fridays` -> `friday`). */
const CALENDAR: ReadonlyMap<string, string> = new Map(
  [
    // Abbreviations that are also words (wed, sat, sun, mar) are left out: as words they are rarely dates.
    ['monday', 'mon'],
    ['tuesday', 'tue tues'],
    ['wednesday', ''],
    ['thursday', 'thu thur thurs'],
    ['friday', 'fri'],
    ['saturday', ''],
    ['sunday', ''],
    ['january', 'jan'],
    ['february', 'feb'],
    ['march', ''],
    ['april', 'apr'],
    ['june', 'jun'],
    ['july', 'jul'],
    ['august', 'aug'],
    ['september', 'sep sept'],
    ['october', 'oct'],
    ['november', 'nov'],
    ['december', 'dec'],
  ].flatMap(([full = '', short = '']) =>
    [full, ...short.split(' ').filter(Boolean)].map((form) => [form, full] as const),
  ),
);

/** Switch words folded to the state they name (`enabled` and `on` say the same). */
const SWITCH_STATES: ReadonlyMap<string, string> = new Map(
  [
    ['on', 'on enabled true yes allowed'],
    ['off', 'off disabled false forbidden'],
    ['required', 'required'],
    ['optional', 'optional'],
  ].flatMap(([state = '', forms = '']) => forms.split(' ').map((form) => [form, state] as const)),
);

/** Spelled-out numbers as digits, so "eight" and "8" are one value. */
const SPELLED_NUMBERS: ReadonlyMap<string, string> = new Map(
  'two three four five six seven eight nine ten eleven twelve'
    .split(' ')
    .map((word, index) => [word, String(index + 2)]),
);

/** A clock time: `9`, `9:30`, `10am`, `10:00pm`, `21:00` (with am/pm, a colon, or followed by am/pm/o'clock). */
const CLOCK = /^(\d{1,2})(?::(\d{2}))?(am|pm)?$/;

/**
 * Whether a word before a number makes the number a name ("item 35") rather than an amount ("is 100", "at 9"). Open
 * on purpose: a verb taken for a noun ("pay 1,600") only loses a conflict, an identifier taken for an amount makes
 * every numbered item conflict with every other.
 */
function isIdentifierHead(word: string): boolean {
  return (
    kindOf(word) === null &&
    !FUNCTION_WORDS.has(word) &&
    !FILLERS.has(word) &&
    !NEGATIONS.has(word) &&
    !UPDATE_WORDS.has(word) &&
    relationOf(word) === undefined &&
    !PAST_FORMS.has(word) &&
    !/(?:ed|s)$/.test(word)
  );
}

/** A word that can name what a number counts or belongs to. */
function isContentWord(word: string | undefined): boolean {
  return (
    word !== undefined &&
    kindOf(word) === null &&
    !FUNCTION_WORDS.has(word) &&
    !FILLERS.has(word) &&
    !NEGATIONS.has(word) &&
    !UPDATE_WORDS.has(word) &&
    !/^(?:am|pm)$/.test(word)
  );
}

/** The nearest content word at most two words before `index` (a bare number's owner: "budget of 4,000"). */
function nearestContentBefore(words: readonly string[], index: number): string | undefined {
  for (let back = index - 1; back >= Math.max(0, index - 3); back -= 1) {
    const word = words[back];
    if (isContentWord(word) && relationOf(word ?? '') === undefined) return word;
  }
  return undefined;
}

/** Lower-cased words, edge punctuation dropped; `n't` split off as `not`. */
export function statementWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .replace(/n't\b/g, ' not')
    .replace(/\b([ap])\.m\.?/g, '$1m')
    .replace(/(\p{L})[-\u2010\u2011](?=\p{L})/gu, '$1 ')
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '');
}

/**
 * A light suffix fold, enough for two wordings of one topic to meet (`deploys`/`deployed`/`deployment`,
 * `allergy`/`allergies`/`allergic`). Not a full stemmer: it only needs to be the same on both sides.
 */
export { foldWord };

/** Periods of a rate ("a month", "per hour"), folded to one name each. */
const PERIODS: ReadonlyMap<string, string> = new Map(
  [
    ['hour', 'hour hours hr'],
    ['day', 'day days'],
    ['night', 'night nights'],
    ['week', 'week weeks'],
    ['month', 'month months'],
    ['year', 'year years annum'],
  ].flatMap(([unit = '', forms = '']) => forms.split(' ').map((form) => [form, unit] as const)),
);
const PER = new Set(['a', 'an', 'per', 'each', 'every']);

/**
 * The period of a rate right after the number at `index` ("1,450 a month", "20 miles per week"): its unit and the
 * index of its last word; null when the number is not followed by one.
 */
function periodAfter(words: readonly string[], index: number): { unit: string; at: number } | null {
  for (const offset of [1, 2]) {
    if (offset === 2 && !isContentWord(words[index + 1])) break;
    const unit = PER.has(words[index + offset] ?? '') ? PERIODS.get(words[index + offset + 1] ?? '') : undefined;
    if (unit !== undefined) return { unit, at: index + offset + 1 };
  }
  return null;
}

function clockValue(word: string, next: string | undefined): string | null {
  const match = CLOCK.exec(word);
  if (match === null) return null;
  const suffix = match[3] ?? (next === 'am' || next === 'pm' ? next : undefined);
  if (match[2] === undefined && suffix === undefined && next !== "o'clock") return null;
  let hour = Number(match[1]);
  if (hour > 23 || Number(match[2] ?? 0) > 59) return null;
  if (suffix === 'pm' && hour < 12) hour += 12;
  if (suffix === 'am' && hour === 12) hour = 0;
  return `${hour}:${match[2] ?? '00'}`;
}

function addValue(values: Map<string, Set<string>>, kind: string, value: string) {
  const set = values.get(kind) ?? new Set<string>();
  set.add(value);
  values.set(kind, set);
}

/** Reads a memory's text for comparison (see `StatementFacts`). */
export function readFacts(text: string): StatementFacts {
  const words = rewritePhrases(statementWords(text));
  const topic = new Set<string>();
  const values = new Map<string, Set<string>>();
  let negated = false;
  let negatesValue = false;
  let updates = false;
  let pastEvent = false;
  const frame = [...words];
  const consumed = new Set<number>();
  for (const amount of [...readTimeAmounts(words), ...readAttributeValues(words)]) {
    if (amount.from < 0 || [...consumed].some((index) => index >= amount.from && index <= amount.to)) continue;
    addValue(values, amount.kind, amount.value);
    for (let index = amount.from; index <= amount.to; index += 1) {
      frame[index] = amount.kind;
      consumed.add(index);
    }
  }
  for (const [index, word] of words.entries()) {
    const next = words[index + 1];
    // "two weeks, not three" negates a value, not the statement.
    if (NEGATIONS.has(word)) {
      if (next !== undefined && (kindOf(next) !== null || clockValue(next, words[index + 2]) !== null))
        negatesValue = true;
      else negated = true;
    }
    if (UPDATE_WORDS.has(word)) updates = true;
    // A compound adjective in -ed after a value ("left-handed", "blue-eyed") describes, it reports no event.
    const compound = index > 0 && (kindOf(words[index - 1] ?? '') !== null || frame[index - 1] === '<side>');
    const participle = compound || presentPassive(words, index);
    if (
      PAST_FORMS.has(word) ||
      (word.length > 4 && word.endsWith('ed') && relationOf(word) === undefined && !participle)
    )
      pastEvent = true;
    if (consumed.has(index)) continue;
    const clock = clockValue(word, next);
    if (clock !== null) {
      frame[index] = '<time>';
      addValue(values, '<time>', clock);
      continue;
    }
    if (word === 'am' || word === 'pm' || word === "o'clock") continue;
    const kind = kindOf(word);
    const previous = words[index - 1];
    const period = kind === '#' ? periodAfter(words, index) : null;
    if (period !== null) {
      // An amount per period ("1,450 a month", "20 miles a week") is a rate: its unit is what it counts per what,
      // and "a month" is part of the value, not of the topic. Never an identifier: "item 35 a month" names nothing.
      const counted = period.at === index + 3 ? foldWord(next ?? '') : '';
      frame[index] = `#${counted}/${period.unit}`;
      addValue(values, `#${counted}/${period.unit}`, SPELLED_NUMBERS.get(word) ?? word.replace(/,/g, ''));
      consumed.add(period.at - 1).add(period.at);
      continue;
    }
    if (kind === '#' && previous !== undefined && isIdentifierHead(previous)) {
      // A number right after a noun names something ("item 35", "room 12", "issue 24"): it is part of the subject,
      // so two memories about item 35 and item 95 are about two things, not one thing with two values.
      topic.add(`${foldWord(previous)}#${word}`);
      continue;
    }
    if (kind === '#') {
      // A number is a value of the thing it counts: "100 requests" and "500 requests" are one slot, "2 kids" and
      // "3 cats" are not. A bare number is a value of what it was said of: "a budget of 4,000", "the password is
      // tiger42" (the nearest content word before it); "4,000" and "three" of two different things are not one slot.
      const unit = isContentWord(next) ? foldWord(next ?? '') : foldWord(nearestContentBefore(words, index) ?? '');
      frame[index] = `#${unit}`;
      addValue(values, `#${unit}`, SPELLED_NUMBERS.get(word) ?? word.replace(/,/g, ''));
      continue;
    }
    if (kind === '<weekday>' || kind === '<month>') {
      const singular = word.endsWith('s') ? word.slice(0, -1) : word;
      const day = CALENDAR.get(word) ?? CALENDAR.get(singular);
      // `may` is a verb far more often than a month.
      if (day !== undefined && word !== 'may') {
        frame[index] = kind;
        addValue(values, kind, day);
        continue;
      }
      if (word === 'weekend' || word === 'weekends' || word === 'weekday' || word === 'weekdays') {
        addValue(values, '<weekday>', singular);
        continue;
      }
      continue;
    }
    if (kind === '<colour>') {
      frame[index] = kind;
      addValue(values, kind, word);
      continue;
    }
    if (kind === '<switch>') {
      const state = SWITCH_STATES.get(word);
      // `on`, `off`, `yes`, `true` are values only at the end ("dark mode is on"); elsewhere `on` is a preposition.
      const bare = word === 'on' || word === 'off' || word === 'yes' || word === 'true' || word === 'false';
      if (state !== undefined && (!bare || index === words.length - 1)) {
        frame[index] = kind;
        addValue(values, kind, state);
      }
      if (state !== undefined || FUNCTION_WORDS.has(word)) continue;
    }
    if (FUNCTION_WORDS.has(word) || FILLERS.has(word) || NEGATIONS.has(word) || UPDATE_WORDS.has(word)) continue;
    if (word.length < 2) continue;
    topic.add(canonWord(word));
  }
  return { words, frame, topic, values, negated, negatesValue, updates, pastEvent };
}

/** Fewer topic words than this say too little for two texts to be the same statement by their words alone. */
const MIN_PARAPHRASE_TOPIC = 2;

/**
 * A key two wordings of one statement share when they differ only in function words, fillers, inflection,
 * punctuation and case ("I am allergic to peanuts" / "I'm allergic to peanuts!", "The team deploys every Friday" /
 * "Team deploys on Fridays"): the topic words in order, the values by kind, and the polarity. Word order is kept:
 * "Alice likes Bob" and "Bob likes Alice" are two facts. Null for a text with too few topic words.
 */
export function paraphraseKey(text: string): string | null {
  const facts = readFacts(text);
  const ordered: string[] = [];
  for (const word of facts.words) {
    const folded = canonWord(word);
    if (facts.topic.has(folded) && ordered.at(-1) !== folded) ordered.push(folded);
  }
  if (new Set(ordered).size < MIN_PARAPHRASE_TOPIC) return null;
  const values = [...facts.values.entries()].map(([kind, set]) => `${kind}=${[...set].sort().join('|')}`).sort();
  return JSON.stringify([ordered, values, facts.negated || facts.negatesValue]);
}
