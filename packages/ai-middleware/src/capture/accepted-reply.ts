import { acceptsPreviousReply } from './acceptance.js';
import { messageSentences, oneOf } from './sentences.js';

// The assistant offering more of its own help: nothing to accept that outlives the conversation.
const OFFER = new RegExp(
  `^${oneOf(
    "let me\\b, feel free, (?:i )?hope (?:this|that|it) helps, happy to, if you(?:'d| would)? (?:like|want|need)," +
      'would you like, do you want, want me to, shall i, should i, anything else',
  )}`,
  'i',
);
// Courtesy and feelings about what the user said ("glad you had fun", "you're right", "good luck").
const COURTESY = new RegExp(
  `^${oneOf(
    'glad, happy, great, nice, good, awesome, sorry, thanks, thank you, congrat, good luck, enjoy,' +
      "you(?:'re| are) (?:right|welcome|correct)",
  )}`,
  'i',
);
// A proposal put as a question ("shall we use Postgres?"): a yes accepts it.
const PROPOSAL_QUESTION = new RegExp(
  `^${oneOf("shall we, should we, how about, what about, why don't we, why not")}\\b`,
  'i',
);
// A question asking whether the user agrees ("does that sound good?", "ok?"): a yes accepts what came before it.
const AGREEMENT_QUESTION = new RegExp(
  `^(?:${oneOf('does, do, would, will, is')} ${oneOf('that, this, it, the plan')} ` +
    `${oneOf('sound, work, make sense, look, seem, suit, ok, okay, fine, good, alright')}` +
    `|${oneOf('sound, sounds, look, looks')} ${oneOf('good, ok, okay, right, fine')}` +
    `|${oneOf('ok, okay, agreed, alright, right, deal')}\\b)`,
  'i',
);
const DECISION = new RegExp(
  `\\b${oneOf(
    "let's, let us, we should, we could, we'll, we will, we can, you should, you could," +
      "i(?:'d| would)? (?:recommend|suggest|propose|go with|stick with|choose|pick|use)," +
      '(?:my|the|our) (?:recommendation|suggestion|advice|plan|decision|answer|solution|fix|choice)' +
      ' (?:is|would be|will be),' +
      '(?:the )?(?:best|simplest|safest|right) (?:option|choice|approach|bet|way|fit) (?:is|would be),' +
      "how about, what about, why don't we, shall we, should we",
  )}\\b`,
  'i',
);
const CHOICE = new RegExp(`^${oneOf('use, go with, pick, choose, switch to, stick with, opt for')}\\b`, 'i');
// What the assistant says about the user ("your budget is 500 euros", "you prefer window seats").
const ABOUT_USER = new RegExp(
  `\\b(?:you${oneOf(
    "'re, \\s+are, \\s+were, 've, \\s+have, \\s+had, \\s+prefer, \\s+like, \\s+love, \\s+want, \\s+need, \\s+use," +
      "\\s+live, \\s+work, \\s+own, \\s+plan, \\s+decided, \\s+chose, \\s+said, \\s+mentioned, 'll, \\s+will",
  )}|your(?:\\s+\\S+){1,3}\\s+${oneOf('is, are, was, were, will be')})\\b`,
  'i',
);
const QUESTION = /[?？]\s*$/;

/**
 * The sentences of an assistant reply that a "yes" makes true: proposals and decisions ("let's", "we should", "I
 * recommend", "the answer is", "use X", "shall we ...?") and statements about the user ("your budget is 500 euros").
 * Explanations, other questions and offers of more help ("want me to ...?", "let me know") are left out: agreeing
 * to a reply does not make its every sentence worth remembering.
 */
export function decisionSentences(reply: string): string[] {
  return messageSentences(reply)
    .map((sentence) => sentence.text)
    .filter((sentence) => {
      if (OFFER.test(sentence) || COURTESY.test(sentence)) return false;
      if (QUESTION.test(sentence)) return PROPOSAL_QUESTION.test(sentence);
      return DECISION.test(sentence) || CHOICE.test(sentence) || ABOUT_USER.test(sentence);
    });
}

/**
 * Whether a yes to this reply is a yes to what it proposes. A yes answers the last question asked: after "did you
 * paint this one?" it says nothing about the proposal before it; after a proposal ("shall we ...?"), an offer ("want
 * me to set it up?"), a check ("does that sound good?") or no question at all, it accepts.
 */
function yesAcceptsProposal(reply: string): boolean {
  const last = messageSentences(reply).at(-1)?.text;
  if (last === undefined || !QUESTION.test(last)) return true;
  return PROPOSAL_QUESTION.test(last) || OFFER.test(last) || AGREEMENT_QUESTION.test(last);
}

/**
 * What the user accepted of the assistant's previous reply: its decision sentences (`decisionSentences`) when the
 * user's message accepts it (`acceptsPreviousReply`), else nothing.
 */
export function acceptedSentences(userText: string, previousReply: string): string[] {
  if (!acceptsPreviousReply(userText) || !yesAcceptsProposal(previousReply)) return [];
  return decisionSentences(previousReply);
}
