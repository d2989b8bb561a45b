import { isAcceptanceOnly } from './acceptance.js';
import { hasContent } from './has-content.js';
import { oneOf } from './sentences.js';

const FIRST_PERSON = new RegExp(`\\b${oneOf("i, me, my, mine, myself, we, us, our, ours, ourselves, let's")}\\b`, 'i');
// "You" in a user message is the assistant: a statement about it ("you're right", "your answer helped"), thanks or
// praise ("thanks for the tips", "nice work") react to the reply and say nothing the user knows.
const SECOND_PERSON = new RegExp(
  `\\b${oneOf('you, your, yours, yourself, yourselves')}\\b|^${oneOf(
    'thanks, thank, thx, appreciate, congrats, congratulations, good luck, well done, way to go, keep it up,' +
      'keep up, (?:nice|good|great) (?:job|work|one)',
  )}\\b`,
  'i',
);
// Chat drops the subject "I" ("Just got back from Rome", "Been learning Spanish", "Moved to Berlin in May"): a
// statement that opens with a verb's past form has the speaker as its subject, since an imperative opens with the
// bare verb and a past form is rarely a subject (an -ing form is as often a subject: "Painting relaxes me"), except
// the few that open as prepositions ("Based on that, ...").
const SUBJECT_DROPPED = new RegExp(
  `^(?:${oneOf('just, still, finally, recently, also, already')}\\s+)?${oneOf(
    'been, got, gotten, had, went, did, made, took, saw, met, found, left, came, ran, bought, began, brought, felt,' +
      'heard, kept, knew, lost, paid, sold, sent, spent, won, wrote,' +
      `(?!${oneOf('based, compared, related, provided, supposed, united')}\\b)[a-z][a-z]+[^e\\s]ed`,
  )}\\b`,
  'i',
);
const CONNECTIVE = oneOf('and, but, so, then, also, now, anyway, btw, oh, well, ok, okay, alright, hmm, um, actually');
const CONNECTIVES = new RegExp(`^(?:${CONNECTIVE}\\b[\\s,]*)+`, 'i');
// "Remember ...", "always ...": the user asks for exactly this to be kept (a standing instruction too, "answer in
// French from now on", unless it is a question).
export const KEEP_THIS = new RegExp(
  `^(?:${oneOf('please, pls, kindly')}\\s+)?` +
    `(?:${oneOf('can, could, would, will')}\\s+you\\s+(?:please\\s+)?` +
    `|i(?:'d| would)?\\s+${oneOf('like, want, need')}\\s+you\\s+to\\s+)?` +
    oneOf(
      "remember, keep in mind, bear in mind, make a note, take note, note that, note:, don't forget, do not forget," +
        'never forget, for the record, for future reference, fyi, just so you know, always, never, from now on,' +
        'going forward, in (?:the )?future',
    ) +
    '(?![a-z])',
  'i',
);
const STANDING = new RegExp(`\\b${oneOf('from now on, going forward')}\\b`, 'i');
const WH_QUESTION = new RegExp(
  `^${oneOf("what, what's, whats, who, who's, whom, whose, which, when, where, where's, why, how, how's")}\\b` +
    `(?!\\s+${oneOf("i, i'm, i've, i'd, we, we're, we've, my, our")}\\b)`,
  'i',
);
const YES_NO_QUESTION = new RegExp(
  `^${oneOf(
    "do, does, did, is, are, was, were, am, can, could, would, will, should, shall, may, might, have, has, isn't," +
      "aren't, don't, doesn't, didn't, won't, wouldn't, can't, couldn't, shouldn't, wasn't",
  )}\\s+${oneOf(
    'i, you, u, we, they, he, she, it, there, this, that, these, those, my, your, our, the, anyone, anybody,' +
      'someone, somebody',
  )}\\b`,
  'i',
);
// Addressed to the assistant: politeness, "I'd like you to", "I need advice", or a task verb first ("write", "fix").
const REQUEST = new RegExp(
  [
    `^${oneOf('please, pls, plz, kindly')}\\b`,
    `^i(?:'d| would)?\\s+${oneOf('like, want, need, wish')}\\s+(?:you|u)\\s+to\\b`,
    `^(?:i(?:'d|\\s+would)?\\s+${oneOf('like, need, want')}|i(?:'m|\\s+am)\\s+looking\\s+for)\\s+(?:some\\s+)?` +
      `${oneOf('help, assistance, advice, ideas, suggestions, recommendations, tips')}\\b`,
    `^i(?:'m| am| was)?\\s+${oneOf('asking, wondering, wonder')}\\b`,
    `^let's\\s+${oneOf(
      'talk, start, continue, move on, try, see, focus, look, work on, begin, write, review, do, discuss,' +
        'brainstorm, check, draft, go(?!\\s+with)',
    )}\\b`,
  ].join('|'),
  'i',
);
const TASK_VERB = new RegExp(
  `^${oneOf(
    'write, draft, compose, create, make, generate, build, give, show, tell, explain, describe, summari[sz]e,' +
      'translate, list, find, search, look, check, compare, calculate, compute, convert, fix, debug, rewrite,' +
      'rephrase, edit, proofread, review, analy[sz]e, suggest, recommend, help, teach, outline, brainstorm, define,' +
      'send, book, schedule, set, add, remove, delete, forget, update, change, continue, repeat, try, run, answer,' +
      'respond, reply, remind, research, estimate, walk, read, format, sort, draw, design, implement, refactor,' +
      'optimi[sz]e, improve, expand, shorten, simplify, clarify, elaborate, get, stop, start, guess, imagine,' +
      'pretend, act, assume, go, do',
  )}\\b(?!\\s+${oneOf('is, are, was, were, has, had')}\\b)`,
  'i',
);
// A sentence that refers back to the one before it ("They are 5 and 7", "The rent is high").
const BACK_REFERENCE = oneOf('it, its, they, their, them, he, his, she, her, this, that, these, those, there, the');
export const REFERS_BACK = new RegExp(`^(?:${BACK_REFERENCE}|both|each|all)\\b`, 'i');
// A task on text the message hands over ("summarize this", "translate the following", "proofread my essay"): the
// message's statements are that text, whether it comes before the task or after it.
const WORKS_ON_TEXT = new RegExp(
  `\\b${oneOf(
    'summari[sz]e, translate, proofread, rewrite, rephrase, paraphrase, reword, edit, shorten, simplify, explain,' +
      'analy[sz]e, critique, review, correct, polish, improve, reply to, respond to',
  )}\\s+(?:${oneOf('this, these, that, it, the following')}\\b|(?:${oneOf('the, my, this, that')}\\s+)?${oneOf(
    'text, article, email, e-mail, message, paragraph, passage, essay, document, letter, story, post, report, draft,' +
      'poem, transcript, excerpt, quote',
  )}\\b)|\\b${oneOf('below, above')}\\s*[:.!?]*$`,
  'i',
);
const HYPOTHETICAL = new RegExp(
  `^${oneOf('if, unless, in case, suppose, supposing, imagine, assuming, hypothetically')}\\b`,
  'i',
);
// "Here's the text:", "Summarize this:": what follows the colon is handed over to work on, not stated.
export const PRESENTS = new RegExp(`^${oneOf("here's, here is, here are, below is, below are, attached is")}\\b`, 'i');
export const QUESTION_MARK = /[?？؟]\s*$/;
/** What a clause of a user message is, for capture. */
export type ClauseKind = 'keep-this' | 'question' | 'request' | 'empty' | 'personal' | 'addressed' | 'other';

/** The clause without leading connectives ("and", "so", "ok", "actually"). */
export function bare(clause: string): string {
  return clause.replace(CONNECTIVES, '');
}

/** Whether a clause opens a question or a request, after a statement in the same sentence. */
export function opensClause(clause: string): boolean {
  const text = bare(clause);
  return WH_QUESTION.test(text) || YES_NO_QUESTION.test(text) || REQUEST.test(text) || TASK_VERB.test(text);
}

/** Whether a question or request hands over text to work on (`WORKS_ON_TEXT`), beside it in the message. */
export function handsOverText(clause: string): boolean {
  const kind = kindOf(clause);
  return (kind === 'question' || kind === 'request') && WORKS_ON_TEXT.test(bare(clause));
}

/**
 * What a clause is: asked to be kept, a question, a request, empty (filler, agreement, small talk, a condition), a
 * first-person statement ('personal'), a statement about the assistant ('addressed'), or another statement.
 */
export function kindOf(clause: string): ClauseKind {
  const text = bare(clause);
  if (KEEP_THIS.test(text)) return hasContent(text) ? 'keep-this' : 'empty';
  if (QUESTION_MARK.test(text) || WH_QUESTION.test(text) || YES_NO_QUESTION.test(text)) return 'question';
  if (STANDING.test(text) && hasContent(text)) return 'keep-this';
  if (REQUEST.test(text) || TASK_VERB.test(text)) return 'request';
  if (isAcceptanceOnly(text) || !hasContent(text) || HYPOTHETICAL.test(text)) return 'empty';
  if (FIRST_PERSON.test(text) || SUBJECT_DROPPED.test(text)) return 'personal';
  return SECOND_PERSON.test(text) ? 'addressed' : 'other';
}
