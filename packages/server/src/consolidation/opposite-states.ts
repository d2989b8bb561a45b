import { HEDGES } from './frame-words.js';
import type { StatementFacts } from './statement-facts.js';
import { namesAnotherSubject } from './subject-guards.js';
import { canonWord, oppositeStates } from './word-relations.js';

/** One subject said to be in two states that exclude each other. */
export interface OppositeStates {
  older: string;
  newer: string;
  topic: string[];
}

/** Words that make a statement a plan or a guess rather than a state: "will be approved", "might be closed". */
const UNSURE = new Set([...HEDGES, 'will', "won't", 'expect', 'expected', 'likely', 'unlikely']);

/**
 * A word that names a state: not a verb's present form ("opens", "closing"), which tells when something happens
 * ("the gym opens at 6am" / "closes at 10pm"), not what state it is in.
 */
const isState = (word: string) => !/(?:s|ing)$/.test(word) || /(?:ss|ous|us|is)$/.test(word);

/** The canonical topic words among the first `end` words. */
function topicBefore(facts: StatementFacts, end: number): string[] {
  return facts.words
    .slice(0, end)
    .map(canonWord)
    .filter((word) => facts.topic.has(word));
}

/**
 * Whether two statements put one subject in opposite states (word-relations.ts: "paid" / "unpaid", "approved" /
 * "rejected", "open" / "closed"): "The Acme invoice was paid." / "The invoice from Acme is still unpaid.". The
 * words before each state word name the subject: each of their topic words must be in the other statement, and no
 * word swapped between them may name a second subject ("the first invoice" / "the second invoice"); neither may be
 * negated, a question, a plan or a guess. What follows the state may differ ("paid on time" / "unpaid and overdue").
 * Tense may differ too: a state said of the past and its opposite said later are still one subject's two states,
 * the newer the one to trust.
 */
export function oppositeStateConflict(older: StatementFacts, newer: StatementFacts): OppositeStates | null {
  if (older.negated || newer.negated) return null;
  if ([...older.words, ...newer.words].some((word) => UNSURE.has(word))) return null;
  for (const [olderAt, olderWord] of older.words.entries()) {
    const before = canonWord(olderWord);
    if (!isState(olderWord) || !older.topic.has(before) || newer.topic.has(before)) continue;
    for (const [newerAt, newerWord] of newer.words.entries()) {
      const after = canonWord(newerWord);
      if (!isState(newerWord) || !newer.topic.has(after) || older.topic.has(after)) continue;
      if (!oppositeStates(olderWord, newerWord)) continue;
      const [olderSubject, newerSubject] = [topicBefore(older, olderAt), topicBefore(newer, newerAt)];
      if (olderSubject.length === 0 || newerSubject.length === 0) continue;
      if (!olderSubject.every((word) => newer.topic.has(word))) continue;
      if (!newerSubject.every((word) => older.topic.has(word))) continue;
      const subjectsOnly = (facts: StatementFacts, end: number) => ({ ...facts, frame: facts.frame.slice(0, end) });
      if (namesAnotherSubject(subjectsOnly(older, olderAt), subjectsOnly(newer, newerAt))) continue;
      return { older: olderWord, newer: newerWord, topic: olderSubject };
    }
  }
  return null;
}
