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

/** Both slots hold alternatives of one closed kind, word for word (2am / 3am, Fridays / Mondays, blue / red). */
function sameKind(older: readonly string[], newer: readonly string[]): boolean {
  if (older.length === 0 || older.length !== newer.length) return false;
  return older.every((word, index) => {
    const other = newer[index] ?? '';
    return word === other || (kindOf(word) !== null && kindOf(word) === kindOf(other));
  });
}

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
  // Text has no known relation: its key already holds its first six words, so only a short changed tail remains.
  if (older.shape === 'text') return true;
  if (!newer.singleValued) return ROLE_PREPOSITIONS.has(changed.after[0] ?? '');
  return newer.subject.length >= 2 || changed.shared > 0;
}
