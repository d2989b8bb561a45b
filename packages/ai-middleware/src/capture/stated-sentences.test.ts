import { describe, expect, it } from 'vitest';
import { statedSentences } from './stated-sentences.js';

describe('statedSentences', () => {
  it.each([
    // Statements about the user, their work, plans and decisions.
    ['I live in Lisbon and work as a pastry chef.', ['I live in Lisbon and work as a pastry chef.']],
    ['My favourite tea is genmaicha.', ['My favourite tea is genmaicha.']],
    ['We decided to ship on Fridays.', ['We decided to ship on Fridays.']],
    ['Our staging database runs Postgres 16.', ['Our staging database runs Postgres 16.']],
    ['No, let’s use MySQL.', ["No, let's use MySQL."]],
    // Chat drops the subject.
    [
      'Just got back from Rome. Been learning Italian since March.',
      ['Just got back from Rome.', 'Been learning Italian since March.'],
    ],
    ['Moved to Berlin in May.', ['Moved to Berlin in May.']],
    // Any other statement: a fact stated is worth keeping whoever it is about.
    ['The meeting is at 3pm on Thursday.', ['The meeting is at 3pm on Thursday.']],
    ['The kids loved the beach.', ['The kids loved the beach.']],
    [
      'The Roman empire fell in 476. It was a long decline.',
      ['The Roman empire fell in 476.', 'It was a long decline.'],
    ],
    ['What should I get my sister for her birthday? She loves hiking.', ['She loves hiking.']],
    // The price: a detail of a request reads as a fact.
    ['Can you suggest cafés? They should be quiet.', ['They should be quiet.']],
    // What the user asks to keep, with or without a first-person word.
    ['Remember that the wifi password is hunter2.', ['Remember that the wifi password is hunter2.']],
    ['Can you remember that I am allergic to nuts?', ['Can you remember that I am allergic to nuts?']],
    ['Always answer in French.', ['Always answer in French.']],
    ['Remember this:\n\nThe standup is at 9:30.', ['The standup is at 9:30.']],
    ['Answer in French from now on.', ['Answer in French from now on.']],
    ['What should I cook from now on?', []],
    // Questions and requests.
    ["What's the weather in Paris?", []],
    ['how do I reset my password', []],
    ['Do you remember my dog’s name?', []],
    ['Write me a poem about autumn.', []],
    ['Summarize this article for me please.', []],
    ["I'd like you to draft an email to my landlord.", []],
    ['Please check my essay for typos.', []],
    ['Forget that I live in Lisbon.', []],
    ['I need some advice on my CV.', []],
    // Mixed messages keep their statements.
    ['I moved to Berlin last month. Can you suggest cafés?', ['I moved to Berlin last month.']],
    ["I'm vegetarian, so what should I cook tonight?", ["I'm vegetarian,"]],
    ['Fix this bug. I am using Node 24.', ['I am using Node 24.']],
    ['I deploy on Tuesdays. Which day is best for a release party?', ['I deploy on Tuesdays.']],
    // Continuations, conditions, material, agreement, filler.
    ['I have two kids. They are 5 and 7.', ['I have two kids.', 'They are 5 and 7.']],
    ['If I move to Berlin, what is the rent like?', []],
    ['Summarize this:\nI am writing to tell you that our office closes on Monday.', []],
    ['Translate to French: I love my cat.', []],
    // Text handed over to work on, before or after the task, is material too; what the user says of themselves is not.
    ['Translate the following into Spanish.\nThe store opens at nine.', []],
    ['The quarterly numbers are up 4%.\n\nSummarize this for my boss.', []],
    ['Proofread my essay.\n\nPainting is a great outlet. Based on that, nothing changes.', []],
    ['I teach chemistry. Explain this paragraph to my students.\n\nWater boils at 100 °C.', ['I teach chemistry.']],
    ['Yes, let’s do that.', []],
    ['Sounds good to me!', []],
    ['Thank you so much!', []],
    ['I agree.', []],
    ['Never mind.', []],
    // Small talk, greetings and thanks by name, and statements about the assistant.
    ['Thanks, Maria!', []],
    ['Hey John!', []],
    ["Wow, Caroline, that's amazing!", []],
    ['Take care, talk soon!', []],
    ["You're right, that makes sense.", []],
    ['Thanks for the tips!', []],
    ['```\nconst me = 1; // my code\n```', []],
    // Text these rules cannot read keeps all but its questions.
    ['Ich wohne in Berlin. Wo ist der Bahnhof?', ['Ich wohne in Berlin.']],
  ])('%j keeps %j', (message, expected) => {
    expect(statedSentences(message)).toEqual(expected);
  });
});
