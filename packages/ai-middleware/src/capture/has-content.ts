import { oneOf, wordsOf } from './sentences.js';

// Function words, light verbs, greetings, agreement and small talk: a clause made only of these points back at
// something said before ("let's do that", "I agree", "thank you so much", "that's amazing") and states nothing on its
// own.
const LIGHT_WORDS = new Set(
  [
    'i me my mine myself we us our ours ourselves you your yours yourself he him his she her hers it its they them',
    'their theirs this that these those there here what which who whom whose when where why how',
    'a an the some any all each every no not none both either neither much many more most few such same other',
    'am is are was were be been being do does did done doing have has had having can could will would shall should',
    "may might must don't doesn't didn't can't won't isn't aren't wasn't weren't haven't hasn't wouldn't shouldn't",
    "couldn't to of in on at by for with about from into up down out off over as if so and or but nor than then",
    'because while let go goes going went get gets got make makes made think know see mean guess agree like love',
    'want need hope feel say said tell told just really very too also now still yet already maybe actually well',
    'ahead anyway again even only quite pretty definitely absolutely exactly totally sure right yes yeah yep yup',
    'nope ok okay k alright thanks thank thx ty please pls hi hello hey bye goodbye welcome sorry cool great nice',
    'good fine perfect awesome lol haha hmm wow oh ah um uh deal sounds works mind worries remember note forget',
    'keep record fyi future reference always never forward',
    // Reactions and small talk: "that's amazing!", "congrats!", "take care, talk soon".
    'amazing wonderful fantastic incredible lovely beautiful exciting excited glad happy fun cute stoked impressive',
    'inspiring brilliant super congrats congratulations luck take care talk talking chat chatting later soon hear',
    'hearing problem long time day way look looks seem seems sound cheers yay woohoo woo hoo phew woah whoa aww',
    'agreed anytime enjoy wait bet',
  ]
    .join(' ')
    .split(' '),
);

// A name the message is addressed to ("Thanks, Maria!", "Hey John!", "Caroline, great news") is not content.
const TRAILING_NAME = /,\s*\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?[\s.!?…]*$/u;
const LEADING_NAME = /^\p{Lu}\p{Ll}+,\s*/u;
const INNER_NAME = /,\s*\p{Lu}\p{Ll}+,/gu;
const GREETING = new RegExp(
  `^${oneOf('hey, hi, hello, bye, thanks, thank you, wow, yeah, congrats, congratulations')}\\b[\\s,!]*`,
  'i',
);

/** The clause without the names it is addressed to. */
function withoutNames(clause: string): string {
  const text = clause.replace(TRAILING_NAME, '').replace(INNER_NAME, ',').replace(LEADING_NAME, '');
  const greeting = GREETING.exec(text)?.[0];
  return greeting === undefined ? text : text.slice(greeting.length).replace(/^\p{Lu}\p{Ll}+/u, '');
}

/**
 * Whether a clause says something of its own: a word that is not a function word, light verb, greeting, agreement or
 * small talk, once the names it is addressed to are left out.
 */
export function hasContent(clause: string): boolean {
  return wordsOf(withoutNames(clause)).some((word) => !LIGHT_WORDS.has(word));
}
