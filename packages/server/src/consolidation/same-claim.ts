import { kindOf, ROLE_PREPOSITIONS } from './statement-words.js';
import type { Statement } from './subject-key.js';

/** A changed value longer than this is a different statement, not the same claim with a new value. */
const MAX_SLOT_WORDS = 4;

/** The words two values differ in, after their common opening and ending, and how many they share around them. */
function slot(older: readonly string[], newer: readonly string[]) {
  let prefix = 0;
  while (prefix < older.length && prefix < newer.length && older[prefix] === newer[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < older.length - prefix &&
    suffix < newer.length - prefix &&
    older[older.length - 1 - suffix] === newer[newer.length - 1 - suffix]
  )
    suffix += 1;
  return {
    older: older.slice(prefix, older.length - suffix),
    newer: newer.slice(prefix, newer.length - suffix),
    shared: prefix + suffix,
    after: newer.slice(newer.length - suffix),
  };
}

/** Relations that say a value changed ("moved to", "switched to"): in the past tense they still replace. */
const MOVING_RELATIONS: ReadonlySet<string> = new Set(['moves', 'switches', 'chooses']);

/** Whether a slot holds a value of a closed kind (a number, a day, a month...). */
function hasKind(words: readonly string[]): boolean {
  return words.some((word) => kindOf(word) !== null);
}

/** Both slots hold alternatives of one closed kind, word for word (2am / 3am, Fridays / Mondays, blue / red). */
function sameKind(older: readonly string[], newer: readonly string[]): boolean {
  if (older.length === 0) return false;
  if (older.length === newer.length) {
    const wordForWord = older.every((word, index) => {
      const other = newer[index] ?? '';
      return word === other || (kindOf(word) !== null && kindOf(word) === kindOf(other));
    });
    if (wordForWord) return true;
  }
  // A date or a time written two ways ("on April 4" / "October 12"): both slots are values of closed kinds but for
  // the little words between them, and they have a kind in common.
  const values = (words: readonly string[]) => words.filter((word) => !SLOT_GLUE.has(word));
  const olderValues = values(older);
  const newerValues = values(newer);
  if (olderValues.length === 0 || newerValues.length === 0) return false;
  if (![...olderValues, ...newerValues].every((word) => kindOf(word) !== null)) return false;
  const olderKinds = new Set(olderValues.map(kindOf));
  return newerValues.some((word) => olderKinds.has(kindOf(word)));
}

/** Little words around a value in a slot: prepositions and articles ("on", "at", "the"). */
const SLOT_GLUE: ReadonlySet<string> = new Set(['on', 'at', 'in', 'the', 'of', 'by', 'from', 'to', 'until', 'around']);

/**
 * Whether a newer statement replaces an older one of the same subject key (readStatement), deterministically.
 * A contradiction is the same claim with one value changed: the two statements differ in one slot of at most
 * four words, everything else equal, and that slot is known to hold one value at a time, because
 * - its two fillings are values of one closed kind (numbers and times, weekdays, months, colours, on/off); or
 * - the relation holds one value per subject (is, prefers, lives, happens...; an explicit `Subject: value` line),
 *   and something besides the verb pins what is being set: a subject of two words or more ("the office wifi
 *   password is"), or words of the value the two share ("prefers _ mode", "lives in _"). "Alice is the team
 *   lead" and "Alice is vegetarian" share only "Alice is": two facts, both kept; or
 * - a many-valued relation (uses, likes, runs) is narrowed to one role by a shared "for ..."/"as ..." ("use _
 *   for installs"). "Likes tea" and "likes hiking" are two facts, both kept.
 * A restatement (no slot: same words but for fillers like "now", "not") replaces the older one too. When in doubt
 * the answer is no: a missed conflict leaves two live memories, a wrong one hides a true memory.
 */
export function replacesStatement(older: Statement, newer: Statement): boolean {
  if (older.key !== newer.key || older.shape !== newer.shape) return false;
  if (older.shape === 'attribute') return true;
  const changed = slot(older.value, newer.value);
  if (changed.older.length > MAX_SLOT_WORDS || changed.newer.length > MAX_SLOT_WORDS) return false;
  if (changed.older.length === 0 && changed.newer.length === 0) return true;
  if (sameKind(changed.older, changed.newer)) return true;
  // A value of a closed kind against an open word fills two different slots: "born in 2015" / "born in Leeds".
  if (hasKind(changed.older) !== hasKind(changed.newer)) return false;
  // Experiences accumulate ("I have been to Peru" / "... to Chile"); the past does not undo the present ("works in
  // London" / "worked in Lagos before 2020"), unless the newer says it moved or switched.
  if (older.perfect === true || newer.perfect === true) return false;
  if (newer.past === true && older.past !== true && !MOVING_RELATIONS.has(newer.key.split(' ').at(-1) ?? ''))
    return false;
  // Text has no known relation: its key already holds its first six words, so only a short changed tail remains.
  if (older.shape === 'text') return true;
  if (!newer.singleValued) return ROLE_PREPOSITIONS.has(changed.after[0] ?? '');
  return newer.subject.length >= 2 || changed.shared > 0;
}

/**
 * Whether the newer statement replaces the older one with another value (`replacesStatement`, but not a mere
 * restatement: two wordings of one value are a duplicate, not a conflict).
 */
export function statesOtherValue(older: Statement, newer: Statement): boolean {
  if (!replacesStatement(older, newer)) return false;
  if (older.shape === 'attribute') return older.value.join(' ') !== newer.value.join(' ');
  const changed = slot(older.value, newer.value);
  // One word spelled two ways ("flowerpot" / "flower pot", "O-negative" / "O negative") is a restatement.
  const joined = (words: readonly string[]) => words.join('').replace(/[-\u2010\u2011]/g, '');
  return joined(changed.older) !== joined(changed.newer);
}
