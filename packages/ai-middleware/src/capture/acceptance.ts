import { messageSentences, oneOf } from './sentences.js';

// Words that say yes to what was just said, and nothing else.
const AGREEMENT = [
  'yes(?: please)?',
  'yeah',
  'yep',
  'yup',
  'sure(?: thing)?',
  'ok(?:ay)?',
  'k',
  'alright',
  'all right',
  'agreed',
  'i agree',
  'deal',
  'perfect',
  'great',
  'fine',
  '(?:good|great) idea',
  'sounds (?:good|great|perfect|right|fine|like a plan)',
  "(?:that|this|it)(?:'s| is) (?:fine|perfect|great|good|right|correct)",
  '(?:that|this|it) works',
  'works',
  'go ahead',
  'go for it',
  'do it',
  'please do',
  "let's(?: do (?:it|that|this)| go with (?:it|that|this)| go)?",
  'correct',
  'exactly',
  'absolutely',
  'definitely',
  'of course',
  'makes sense',
  'love it',
  'i like (?:it|that)',
].join('|');
const PHRASE = `(?:${AGREEMENT})(?: (?:to|for|with|by) me)?`;
const SEPARATOR = '[\\s,.!;:–—-]+';
const ACCEPTANCE_ONLY = new RegExp(`^${PHRASE}(?:${SEPARATOR}${PHRASE})*[\\s.!]*$`, 'i');
// "Yes", "ok", "sure" open an acceptance whatever follows ("ok do it now"); other agreement words only when a
// punctuation mark, the end or more agreement follows ("correct me if I'm wrong", "fine dining" are not agreement).
const INTERJECTION = oneOf('yes, yeah, yep, yup, sure, ok, okay, alright, all right, agreed');
const OPENING = `(?:${INTERJECTION}\\b|${PHRASE}(?=\\s*(?:$|[,.!;:–—])|\\s+${PHRASE}))`;
const LEADING_ACCEPTANCE = new RegExp(`^${OPENING}(?:${SEPARATOR}${PHRASE}(?=$|${SEPARATOR}))*`, 'i');
// After a yes, these make it a qualified answer or a counter-proposal ("sure, but not Postgres", "ok, what about
// MySQL?", "yes, why?"): the proposal is not accepted as it stands.
const RESERVATION = new RegExp(
  `\\b${oneOf(
    'but, however, though, although, except, instead, rather, unless, wait, not, no, why, what about, how about,' +
      'hmm, actually',
  )}\\b|n't\\b`,
  'i',
);

/** Whether a clause only agrees ("yes", "sounds good", "yes, let's do that", "works for me"). */
export function isAcceptanceOnly(clause: string): boolean {
  return ACCEPTANCE_ONLY.test(clause.trim());
}

/**
 * Whether the user's message accepts what the assistant said before it: its first sentence opens with agreement
 * ("yes", "sounds good", "agreed, go with Postgres", "ok do it") and holds no reservation ("but", "instead", "not",
 * "why", "what about").
 */
export function acceptsPreviousReply(userText: string): boolean {
  const first = messageSentences(userText)[0]?.text;
  if (first === undefined) return false;
  const opening = LEADING_ACCEPTANCE.exec(first);
  return opening !== null && !RESERVATION.test(first.slice(opening[0].length));
}
