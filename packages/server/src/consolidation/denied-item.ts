import { clausesOf } from './clause-tokens.js';
import { readFacts, type StatementFacts } from './statement-facts.js';
import { kindOf } from './statement-words.js';
import { namesAnotherSubject } from './subject-guards.js';
import { canonWord } from './word-relations.js';

/** Words a denied item may open with: `not the URL`, `no Tailwind`, `not any cash`. */
const DETERMINERS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'any']);

/** The share of the smaller side's other topic words the two must have in common (as in conflict-in-other-words.ts). */
const SUBJECT_SHARE = 0.5;

/** The most words a denied item takes: a name or a short noun phrase, never a clause. */
const MAX_ITEM_WORDS = 2;

/**
 * The items a text denies by contrast: a clause of its own that opens with `not` or `no` and holds only what is
 * denied (`Styling is done with CSS modules, no Tailwind.`, `Versions are chosen by a header, not the URL.`,
 * `Use Robert, not Bob, when addressing me.`), as topic words of the text. A denied value (`two weeks, not three`)
 * is no item: the statement states two weeks (statement-facts.ts, `negatesValue`).
 */
function deniedItems(text: string, facts: StatementFacts): string[] {
  const items: string[] = [];
  for (const clause of clausesOf(text)) {
    if (clause.question) return [];
    const [head, ...rest] = clause.tokens.map((token) => token.lower);
    if (head !== 'not' && head !== 'no') continue;
    const item = DETERMINERS.has(rest[0] ?? '') ? rest.slice(1) : rest;
    if (item.length === 0 || item.length > MAX_ITEM_WORDS) continue;
    if (item.some((word) => kindOf(word) !== null || /\p{N}/u.test(word))) continue;
    const words = item.map(canonWord);
    if (words.every((word) => facts.topic.has(word))) items.push(...words);
  }
  return items;
}

/**
 * Whether one statement denies by contrast an item that the other states of the same subject: `The design system
 * uses Tailwind.` / `Styling in the design system is done with plain CSS modules, no Tailwind.`, `The API is
 * versioned in the URL path.` / `API versions are selected with a request header, not the URL.`. "A, not B" says B
 * is wrong in any text, so the other statement's B is disputed. The guards are those of the closed-kind rule: the
 * affirming statement does not negate (`I don't like being called Bob` / `Use Robert, not Bob` agree), at least half
 * the topic words of the shorter are the other's too, neither names another subject in the same frame, and two
 * reports of past events are not compared unless the newer says it changes something. The shared subject is counted
 * without the item: two statements that share only the denied word speak of two things. Returns the shared topic
 * words, the denied item first, or null.
 */
export function deniedItemConflict(
  olderText: string,
  newerText: string,
  older: StatementFacts = readFacts(olderText),
  newer: StatementFacts = readFacts(newerText),
): string[] | null {
  if (older.pastEvent && newer.pastEvent && !newer.updates) return null;
  if (namesAnotherSubject(older, newer)) return null;
  const shared = [...older.topic].filter((word) => newer.topic.has(word));
  const sides: Array<[string, StatementFacts, string, StatementFacts]> = [
    [olderText, older, newerText, newer],
    [newerText, newer, olderText, older],
  ];
  for (const [denyingText, denying, affirmingText, affirming] of sides) {
    if (affirming.negated || affirming.negatesValue) continue;
    const denied = deniedItems(denyingText, denying);
    if (denied.length === 0) continue;
    const alsoDenied = new Set(deniedItems(affirmingText, affirming));
    const disputed = denied.filter((word) => affirming.topic.has(word) && !alsoDenied.has(word));
    if (disputed.length < denied.length) continue;
    // The subject is what is left once the item is set aside: `Bob is vegetarian` / `Use Robert, not Bob` share
    // only the item, and speak of two things.
    const subject = shared.filter((word) => !disputed.includes(word));
    const smaller = Math.min(older.topic.size, newer.topic.size) - disputed.length;
    if (subject.length > 0 && subject.length >= SUBJECT_SHARE * smaller) return [...disputed, ...subject];
  }
  return null;
}
