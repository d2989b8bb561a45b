import type { Pick } from './facts.js';
import { RELATIONS } from './names.js';
import type { Topic } from './topics.js';

/** What a sentence template fills its slots from: the message's topics and the speaker's people. */
export interface Voice {
  pick: Pick;
  /** The topic of this sentence (the message's main topic most of the time, else a side topic). */
  topic: () => Topic;
  /** Friends and colleagues the user mentions by name (rare words of this user's history). */
  friends: readonly string[];
}

type Template = (slots: Slots) => string;

interface Slots {
  n: string;
  n2: string;
  n3: string;
  v: string;
  v2: string;
  a: string;
  a2: string;
  relation: string;
  friend: string;
  topic: string;
}

/** The user's voice: first person, questions and news, a person or two. */
const USER_SENTENCES: readonly Template[] = [
  (s) => `I've been trying to ${s.v} the ${s.n} but it keeps turning out ${s.a}.`,
  (s) => `My ${s.relation} says I should ${s.v} the ${s.n} more often, but I'm not convinced.`,
  (s) => `Last weekend ${s.friend} and I spent hours on the ${s.n} and the ${s.n2}.`,
  (s) => `Do you think a ${s.a} ${s.n} would work better than a ${s.n2}?`,
  (s) => `I'm planning to ${s.v} the ${s.n} before the ${s.n2} gets too ${s.a}.`,
  (s) => `Can you help me figure out how to ${s.v} my ${s.n} without spending a fortune?`,
  (s) => `Honestly the ${s.n} was ${s.a}, and the ${s.n2} was even worse.`,
  (s) => `We talked about the ${s.n} at dinner and my ${s.relation} had strong opinions about the ${s.n2}.`,
  (s) => `I keep forgetting whether to ${s.v} the ${s.n} first or the ${s.n2}.`,
  (s) => `What's a good way to ${s.v} a ${s.a} ${s.n}?`,
  (s) => `Quick question about ${s.topic}: is it normal for the ${s.n} to be this ${s.a}?`,
  (s) => `${s.friend} recommended that I ${s.v} the ${s.n} every week.`,
  (s) => `I don't have much time this week because of the ${s.n}, so keep it short.`,
  (s) => `It has been a ${s.a} few days, mostly dealing with the ${s.n} and the ${s.n2}.`,
  (s) => `My ${s.relation} and ${s.friend} both think the ${s.n} is overrated.`,
  (s) => `Yesterday I tried to ${s.v} the ${s.n} and ended up with a ${s.a2} ${s.n2} instead.`,
  (s) => `Is there a way to ${s.v} the ${s.n} that doesn't take all afternoon?`,
  (s) => `I read somewhere that you should never ${s.v} a ${s.n} when it's ${s.a}. Is that true?`,
  (s) => `Our ${s.n} is ${s.a} again, and we did everything the guide said.`,
  (s) => `We tried these ${s.n} tips on the weekend, but what worked for my ${s.relation} did not work for us.`,
  (s) => `Which ${s.n} would you pick if you were in my place, with a ${s.a} ${s.n2}?`,
  (s) => `When we were at ${s.friend}'s place, our ${s.n} looked much more ${s.a} than theirs.`,
  (s) => `How long should I wait before I ${s.v} the ${s.n} again?`,
  (s) => `Where do people usually ${s.v} their ${s.n} these days?`,
  (s) => `We have been on the ${s.n} for weeks now, and it is still ${s.a}.`,
  (s) => `Who would you ask about a ${s.a} ${s.n}? ${s.friend} did not know either.`,
  (s) => `That is what my ${s.relation} did with our ${s.n} last year, and it was ${s.a}.`,
];

/** The assistant's voice: second person, advice, options and lists. */
const ASSISTANT_SENTENCES: readonly Template[] = [
  (s) => `When it comes to ${s.topic}, the key is to ${s.v} the ${s.n} slowly and keep an eye on the ${s.n2}.`,
  (s) => `A ${s.a} ${s.n} usually means the ${s.n2} needs attention first.`,
  (s) => `You could try to ${s.v} the ${s.n} once a week and see how the ${s.n2} responds.`,
  (s) => `Many people find that a ${s.a} ${s.n} works well, especially if you ${s.v} it early.`,
  (s) => `If your ${s.relation} prefers something ${s.a}, a ${s.n} might be a better fit than a ${s.n2}.`,
  (s) => `Keep in mind that the ${s.n} and the ${s.n2} affect each other more than most guides admit.`,
  (s) => `It's also worth checking the ${s.n}, since a ${s.a} ${s.n2} is a common cause.`,
  (s) => `Cost-wise, a ${s.a} ${s.n} tends to be cheaper than a ${s.n2} over a year.`,
  (s) => `In short: ${s.v} the ${s.n}, keep the ${s.n2} ${s.a}, and give it a couple of weeks.`,
  (s) => `One more tip: don't ${s.v} the ${s.n} when it is ${s.a}; wait until it settles.`,
  (s) => `The most common mistake is to ${s.v} the ${s.n} too often, which leaves the ${s.n2} ${s.a}.`,
  (s) => `Some people ${s.v} the ${s.n} and then ${s.v2} the ${s.n2}, which is fine if you have the time.`,
  (s) => `A ${s.a} ${s.n} and a ${s.a2} ${s.n3} can work together if you plan the ${s.n2} ahead.`,
  (s) => `That depends on your ${s.n}: if it is ${s.a}, I would ${s.v} the ${s.n2} first.`,
  (s) => `Experts usually suggest you ${s.v} the ${s.n} and ${s.v2} the ${s.n2} in the same week.`,
  (s) => `What matters most is how often you ${s.v} the ${s.n}; these small habits add up.`,
  (s) => `If you did that with a ${s.a} ${s.n}, it was probably fine; most ${s.n2} problems come later.`,
  (s) => `Which ${s.n} is right for you depends on where you are and who shares the ${s.n2} with you.`,
  (s) => `Our usual advice is to ${s.v} the ${s.n} on a ${s.a} day, when the ${s.n2} is easier to handle.`,
  (s) => `When you ${s.v} the ${s.n}, these steps tend to work: start small, then ${s.v2} the ${s.n2}.`,
];

const ASSISTANT_OPENINGS = [
  'Great question!',
  "That's a common situation, and there are a few ways to handle it.",
  'Thanks for the details, that helps a lot.',
  "Sure, here's how I would approach it.",
  'Good news: this is easier than it sounds.',
  "I'm sorry to hear that; let's see what we can do.",
];

const ASSISTANT_CLOSINGS = [
  'Let me know if you want a step-by-step plan.',
  'Would you like me to put together a simple schedule?',
  'Happy to go into more detail on any of these.',
  'Tell me how it goes and we can adjust from there.',
  'If you share a bit more about your situation, I can tailor this further.',
];

function slots(voice: Voice): Slots {
  const { pick } = voice;
  const topic = voice.topic();
  return {
    n: pick(topic.nouns),
    n2: pick(topic.nouns),
    n3: pick(topic.nouns),
    v: pick(topic.verbs),
    v2: pick(topic.verbs),
    a: pick(topic.adjectives),
    a2: pick(topic.adjectives),
    relation: pick(RELATIONS),
    friend: pick(voice.friends),
    topic: topic.name,
  };
}

/** A user message of `sentences` sentences, with `planted` sentences placed among them. */
export function userMessage(voice: Voice, sentences: number, planted: readonly string[] = []): string {
  const parts = Array.from({ length: sentences }, () => voice.pick(USER_SENTENCES)(slots(voice)));
  for (const sentence of planted) parts.splice(Math.floor(voice.pick([0, 0.3, 0.6, 1]) * parts.length), 0, sentence);
  return parts.join(' ');
}

/** An assistant reply: an opening, `paragraphs` paragraphs of advice (one as a list), a closing. */
export function assistantReply(voice: Voice, paragraphs: number): string {
  const { pick } = voice;
  const blocks = [pick(ASSISTANT_OPENINGS)];
  const listAt = Math.floor(pick([0, 0.5, 0.99]) * paragraphs);
  for (let index = 0; index < paragraphs; index += 1) {
    const count = 3 + Math.floor(pick([0, 1, 2, 3]));
    const sentences = Array.from({ length: count }, () => pick(ASSISTANT_SENTENCES)(slots(voice)));
    blocks.push(index === listAt ? sentences.map((sentence) => `- ${sentence}`).join('\n') : sentences.join(' '));
  }
  blocks.push(pick(ASSISTANT_CLOSINGS));
  return blocks.join('\n\n');
}
