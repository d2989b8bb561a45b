import { isMeaningful } from '../lifecycle/is-meaningful.js';
import {
  bare,
  handsOverText,
  KEEP_THIS,
  kindOf,
  opensClause,
  PRESENTS,
  QUESTION_MARK,
  REFERS_BACK,
} from './clause-kind.js';
import { readsAsEnglish } from './reads-as-english.js';
import { messageSentences, type Sentence, sentenceClauses } from './sentences.js';

/** For text these English rules cannot read: every sentence that is not a question or filler. */
function unreadStatements(sentences: readonly Sentence[]): string[] {
  return sentences
    .map((sentence) => sentence.text)
    .filter((sentence) => /\p{L}/u.test(sentence) && isMeaningful(sentence) && !QUESTION_MARK.test(sentence));
}

/**
 * The clauses of a user message that state something worth remembering, in order. Kept: what the user says about
 * themselves, their work and plans (a first-person statement: "I moved to Berlin", "our API uses Postgres", "we
 * decided to ship Friday"), what they ask to be kept ("remember that ...", "always answer in French"), and any other
 * statement ("The meeting is at 3pm on Thursday.", "Dana's flight lands at 6. It is delayed."). Left out:
 * questions, requests to the assistant ("write me a poem", "can you ..."), what a request hands over after a colon
 * ("summarize this: ..."), conditions ("if I move ..."), agreement, small talk and filler ("thanks, Maria!",
 * "that's amazing"), statements about the assistant ("you're right"), and, in a message that hands over text to work
 * on ("translate the following", "proofread my essay"), the statements of that text, unless they refer back to a kept
 * one in the same paragraph. A message these English rules cannot read (`readsAsEnglish`) keeps all but its questions
 * and filler.
 */
export function statedSentences(text: string): string[] {
  const sentences = messageSentences(text);
  if (!readsAsEnglish(text)) return unreadStatements(sentences);
  const clauses = sentences.flatMap(({ text: sentence, paragraph }) =>
    sentenceClauses(sentence, opensClause).map((clause) => ({ clause, paragraph })),
  );
  const material = clauses.some(({ clause }) => handsOverText(clause));
  const kept: string[] = [];
  let dictated = false; // after "Remember this:", what follows is what to keep
  let previous: { paragraph: number; kept: boolean } = { paragraph: -1, kept: false };
  for (const { clause, paragraph } of clauses) {
    const kind = kindOf(clause);
    const introduces = clause.endsWith(':');
    if ((kind === 'question' || kind === 'request' || PRESENTS.test(clause)) && introduces) return kept;
    if (kind === 'question' || kind === 'request') dictated = false;
    const continues = previous.kept && previous.paragraph === paragraph && REFERS_BACK.test(bare(clause));
    // A statement about the assistant, or one in text handed over, is kept only as part of what the user keeps.
    const statement = kind === 'other' || kind === 'addressed';
    const keep =
      kind === 'keep-this' ||
      kind === 'personal' ||
      (kind === 'other' && !material) ||
      (statement && (continues || (dictated && !introduces)));
    if (keep) kept.push(clause);
    if (introduces && KEEP_THIS.test(bare(clause))) dictated = true;
    previous = { paragraph, kept: keep };
  }
  return kept;
}
