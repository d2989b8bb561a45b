import { deniedItemConflict } from './denied-item.js';
import { frameConflict } from './frame-conflict.js';
import { oppositeStateConflict } from './opposite-states.js';
import { sentimentConflict } from './sentiment-conflict.js';
import { readFacts, type StatementFacts } from './statement-facts.js';
import { namesAnotherSubject, otherOwners } from './subject-guards.js';

/**
 * Why two memories in other words were judged to conflict: a value of a closed kind changed, one negates the other,
 * a single-valued relation of one subject got another value, or one subject likes what it disliked.
 */
export type ConflictReason =
  | { kind: 'value_changed'; valueKind: string; older: string[]; newer: string[]; topic: string[] }
  | { kind: 'negated'; topic: string[] }
  | { kind: 'other_value'; relation: string; older: string[]; newer: string[]; topic: string[] }
  | { kind: 'opposite_sentiment'; older: string[]; newer: string[]; topic: string[] }
  | { kind: 'opposite_state'; older: string[]; newer: string[]; topic: string[] };

/** The share of the smaller side's topic words the two must have in common to speak of one subject. */
const SUBJECT_SHARE = 0.5;

/** Verbs of an amount that name no subject of their own: "we pay 1,600 a month in rent" is about the rent. */
const AMOUNT_VERBS: ReadonlySet<string> = new Set(['pay', 'pays', 'paid', 'cost', 'spend', 'spent', 'charg']);

/**
 * Two rates ("1,450 a month", "1,600 a month") are of one thing when the two statements have the same topic words
 * but for a verb of paying: "Our rent is 1,450 a month" / "We pay 1,600 a month in rent". Stricter than a shared
 * half, since two monthly amounts of one owner are common ("I pay 300 a month for my car" / "My car costs 90 a month
 * to insure"); and since the topic names the thing, the speaker's "we" and "our rent" are not two subjects.
 */
function sameAmountTopic(older: StatementFacts, newer: StatementFacts): boolean {
  const own = (facts: StatementFacts) => [...facts.topic].filter((word) => !AMOUNT_VERBS.has(word));
  const [left, right] = [own(older), own(newer)];
  return left.length > 0 && left.length === right.length && left.every((word) => newer.topic.has(word));
}

/**
 * Whether two statements speak of one subject by their words: at least half the topic words of the shorter are the
 * other's too. One shared word among many is a shared topic, not a shared subject ("rent is due" / "the bill is due").
 */
export function sharesSubject(older: StatementFacts, newer: StatementFacts): boolean {
  const shared = [...older.topic].filter((word) => newer.topic.has(word)).length;
  return shared > 0 && shared >= SUBJECT_SHARE * Math.min(older.topic.size, newer.topic.size);
}

/** The closed-kind rule: a changed value of one kind, or a negation, under the guards of `conflictInOtherWords`. */
function closedKindConflict(older: StatementFacts, newer: StatementFacts): ConflictReason | null {
  if (!sharesSubject(older, newer)) return null;
  const shared = [...older.topic].filter((word) => newer.topic.has(word));
  const another = namesAnotherSubject(older, newer);
  const events = older.pastEvent && newer.pastEvent && !newer.updates;
  if (events) return null;
  if (older.negated !== newer.negated && !another) {
    const [shorter, longer] = older.topic.size <= newer.topic.size ? [older, newer] : [newer, older];
    if ([...shorter.topic].every((word) => longer.topic.has(word))) return { kind: 'negated', topic: shared };
  }
  for (const [valueKind, olderValues] of older.values) {
    const newerValues = newer.values.get(valueKind);
    if (newerValues === undefined) continue;
    if ([...olderValues].some((value) => newerValues.has(value))) continue;
    if (valueKind.includes('/') ? !sameAmountTopic(older, newer) || otherOwners(older, newer) : another) continue;
    return { kind: 'value_changed', valueKind, older: [...olderValues], newer: [...newerValues], topic: shared };
  }
  return null;
}

/**
 * Whether a newer memory contradicts an older one that it words differently (docs/architecture.md#write-side-behaviour).
 * The vector index proposes the pair (its nearest neighbours are the memories about the same thing, whatever their
 * words); this rule decides, deterministically, and says no when in doubt: a missed conflict leaves two memories
 * side by side as before, a wrong one tells the model a true memory is disputed. A conflict is
 * - **a changed value**: both give a value of one closed kind (a weekday, a month, a clock time, a colour, a
 *   switch, or a number counting the same thing) and no value of that kind in common ("Deploys go out on
 *   Wednesdays" / "The team deploys on Fridays now"), at least half the topic words of the shorter one are the
 *   other's too, and neither names a second subject in the same frame; a rate ("1,450 a month") needs the same
 *   topic words but for a verb of paying (`sameAmountTopic`); or
 * - **a negation**: one negates what the other states, every topic word of the shorter one in the longer ("I drink
 *   coffee" / "I don't drink coffee anymore"), or denies by contrast an item the other states of the same subject
 *   (denied-item.ts: "The design system uses Tailwind" / "Styling is done with CSS modules, no Tailwind"); or
 * - **another value of a single-valued relation** of one subject, the values being names or, after "my favourite
 *   ...", any short phrase (frame-conflict.ts: "My sister lives in Denver" / "My sister moved to Portland"); or
 * - **the opposite sentiment** of one subject towards the same object (sentiment-conflict.ts: "Hannah loves
 *   coriander" / "Hannah can't stand coriander").
 * Two reports of past events on different days are not a conflict (events recur: "I went running on Monday" and
 * "... on Tuesday" are both true) unless the newer says it changes something ("moved", "now", "instead").
 */
export function conflictInOtherWords(olderText: string, newerText: string): ConflictReason | null {
  const [olderFacts, newerFacts] = [readFacts(olderText), readFacts(newerText)];
  const closed = closedKindConflict(olderFacts, newerFacts);
  if (closed !== null) return closed;
  const question = olderText.includes('?') || newerText.includes('?');
  const denied = question ? null : deniedItemConflict(olderText, newerText, olderFacts, newerFacts);
  if (denied !== null) return { kind: 'negated', topic: denied };
  const states = question ? null : oppositeStateConflict(olderFacts, newerFacts);
  if (states !== null)
    return { kind: 'opposite_state', older: [states.older], newer: [states.newer], topic: states.topic };
  const frame = frameConflict(olderText, newerText);
  if (frame !== null)
    return {
      kind: 'other_value',
      relation: frame.relation,
      older: [frame.older],
      newer: [frame.newer],
      topic: [frame.subject],
    };
  const sentiment = sentimentConflict(olderText, newerText);
  if (sentiment !== null)
    return {
      kind: 'opposite_sentiment',
      older: [sentiment.older],
      newer: [sentiment.newer],
      topic: [sentiment.subject, sentiment.object],
    };
  return null;
}

/**
 * How sure a conflict in other words is: a negation of the same words most, then a changed value of a closed kind,
 * then an open value or a sentiment (read from fewer words).
 */
export function conflictConfidence(reason: ConflictReason): number {
  if (reason.kind === 'negated') return 0.8;
  return reason.kind === 'value_changed' ? 0.7 : 0.65;
}
