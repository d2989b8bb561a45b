import { describe, expect, it } from 'vitest';
import { acceptsPreviousReply } from './acceptance.js';
import { acceptedSentences, decisionSentences } from './accepted-reply.js';

describe('acceptsPreviousReply', () => {
  it.each([
    'Yes, let’s do that.',
    'Sounds good',
    'Agreed, go with Postgres.',
    'ok do it',
    'Sure, what time?',
    'That works for me. My budget is 500 euros.',
    'Perfect, I will book the flights for Monday.',
    'ok do it now',
    'Great idea.',
  ])('%j accepts', (message) => {
    expect(acceptsPreviousReply(message)).toBe(true);
  });

  it.each([
    'Thanks!',
    'Yes, but use MySQL instead.',
    'Ok, what about MySQL?',
    'Sure, why?',
    'No, let’s not.',
    'I am not sure.',
    'Yesterday I moved.',
    'Okra is my favourite vegetable.',
    "Correct me if I'm wrong, the plan was Friday.",
    'Fine dining is my passion.',
    'K-pop is my favourite music.',
  ])('%j does not accept', (message) => {
    expect(acceptsPreviousReply(message)).toBe(false);
  });
});

describe('decisionSentences', () => {
  it('keeps proposals, decisions and what the reply says about the user, not explanations, questions or offers', () => {
    const reply = [
      'Postgres handles concurrent writes well, and its JSON support is mature.',
      'I recommend Postgres for the event store.',
      'Use a separate schema per tenant.',
      'Your budget is 500 euros a month.',
      'Does that help?',
      'Want me to write the migration?',
      'Let me know if you have questions.',
      'Shall we start with the users table?',
    ].join(' ');
    expect(decisionSentences(reply)).toEqual([
      'I recommend Postgres for the event store.',
      'Use a separate schema per tenant.',
      'Your budget is 500 euros a month.',
      'Shall we start with the users table?',
    ]);
  });

  it('finds nothing to accept in a plain answer', () => {
    expect(decisionSentences('Paris is the capital of France. It has about two million inhabitants.')).toEqual([]);
  });
});

describe('acceptedSentences', () => {
  const proposal = 'I recommend Postgres for the event store.';
  it.each([
    [`${proposal} Shall we go with that?`, [proposal, 'Shall we go with that?']],
    [`${proposal} Does that sound good?`, [proposal]],
    [`${proposal} Want me to set it up?`, [proposal]],
    [proposal, [proposal]],
    // The yes answers the last question, not the proposal before it.
    [`${proposal} Have you used Postgres before?`, []],
  ])('a yes after %j accepts %j', (reply, expected) => {
    expect(acceptedSentences('Yes.', reply)).toEqual(expected);
  });

  it('accepts nothing without a yes or without a reply', () => {
    expect(acceptedSentences('Thanks!', proposal)).toEqual([]);
    expect(acceptedSentences('Yes, let’s do that.', '')).toEqual([]);
  });
});
