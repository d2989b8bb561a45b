import { describe, expect, it } from 'vitest';
import type { CapturedTurn } from './capture-options.js';
import { turnCandidates } from './turn-candidates.js';

const proposal = 'I recommend Postgres for the orders table. Want me to sketch the schema?';
const addMemory = { toolName: 'addMemory', input: JSON.stringify({ content: 'The user is allergic to peanuts.' }) };

function turn(userText: string, extra: Partial<CapturedTurn> = {}): CapturedTurn {
  return { userText, answer: 'Noted.', previousAnswer: '', known: [], toolCalls: [], sessionId: 's1', ...extra };
}

// The README's table ("What 'turns' keeps"), row by row.
describe('turnCandidates', () => {
  it.each<[string, CapturedTurn, string[]]>([
    ['a question', turn("What's the weather in Lisbon today?"), []],
    ['a request', turn('Write me a poem about autumn.'), []],
    ['a statement', turn('I work as a nurse in Porto.'), ['User: I work as a nurse in Porto.']],
    [
      'a stated fact',
      turn('The meeting with Dana is at 3pm on Thursday.'),
      ['User: The meeting with Dana is at 3pm on Thursday.'],
    ],
    [
      'a mixed message',
      turn('I moved to Berlin last month. Can you suggest cafés?'),
      ['User: I moved to Berlin last month.'],
    ],
    ['a mixed sentence', turn("I'm vegetarian, so what should I cook tonight?"), ["User: I'm vegetarian."]],
    [
      'a sentence referring back',
      turn('I have two kids. They are 5 and 7.'),
      ['User: I have two kids. They are 5 and 7.'],
    ],
    [
      'what the user asks to keep',
      turn('Remember that the wifi password is hunter2.'),
      ['User: Remember that the wifi password is hunter2.'],
    ],
    ['a standing instruction', turn('Always answer in French.'), ['User: Always answer in French.']],
    ['pasted material', turn('Summarize this:\nHi team, I am writing to say our office closes on Monday.'), []],
    ['text handed over to work on', turn('Translate the following into Spanish.\nThe store opens at nine.'), []],
    ['a turn a memory tool wrote', turn("I'm allergic to peanuts, remember that.", { toolCalls: [addMemory] }), []],
    ['filler', turn('Thanks!'), []],
    ['small talk', turn("Thanks, Maria! That's amazing."), []],
    [
      'agreement with nothing to accept',
      turn('sounds good', { previousAnswer: 'Paris is the capital of France.' }),
      [],
    ],
    ['an answer on its own', turn('I run a bakery.', { answer: proposal }), ['User: I run a bakery.']],
    [
      'an accepted proposal',
      turn('Yes, let’s do that.', { previousAnswer: proposal }),
      ['Assistant (accepted): I recommend Postgres for the orders table.'],
    ],
    [
      'a declined proposal',
      turn("No, I'd rather keep everything in SQLite.", { previousAnswer: proposal }),
      ["User: No, I'd rather keep everything in SQLite."],
    ],
  ])('%s', (_name, captured, expected) => {
    expect(turnCandidates(captured).map((candidate) => candidate.content)).toEqual(expected);
  });

  it('marks an accepted proposal as the assistant’s, accepted, in the session', () => {
    const [accepted, stated] = turnCandidates(
      turn('Sounds good. My budget is 500 euros.', { previousAnswer: proposal }),
    );
    expect(accepted).toMatchObject({
      type: 'note',
      tags: ['capture:turn'],
      metadata: { capture: 'turn', role: 'assistant', accepted: 'true', sessionId: 's1' },
    });
    expect(stated).toMatchObject({
      content: 'User: My budget is 500 euros.',
      metadata: { capture: 'turn', role: 'user', sessionId: 's1' },
    });
  });
});
