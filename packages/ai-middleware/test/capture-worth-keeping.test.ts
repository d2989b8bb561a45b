import { generateText, isStepCount, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CaptureEvent, memoryMiddleware, memoryTools } from '../src/index.js';
import { type MemoryServer, startMemoryServer } from './harness.js';
import { echoModel, generated, systemMessages, textResult, toolCall } from './mock-model.js';

let server: MemoryServer;
beforeAll(async () => {
  server = await startMemoryServer();
});
afterAll(() => server.close());

/**
 * A chat under `capture: 'turns'` that sends the whole history each turn, with a new middleware per request (as a
 * serverless route does): nothing but the prompt carries the previous reply. `reply` scripts the answers in order.
 */
function chat(userId: string, replies: string[]) {
  const scope = { userId };
  const events: CaptureEvent[] = [];
  const onError = vi.fn();
  const answers = [...replies];
  const model = echoModel(() => answers.shift() ?? 'Noted.');
  const messages: ModelMessage[] = [];
  async function say(text: string): Promise<void> {
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      capture: 'turns',
      onCapture: (event) => events.push(event),
      onError,
    });
    messages.push({ role: 'user', content: text });
    const { text: answer } = await generateText({ model: wrapLanguageModel({ model, middleware }), messages });
    messages.push({ role: 'assistant', content: answer });
    await middleware.flush();
  }
  return { say, events, onError, model, scope };
}

async function stored(userId: string) {
  const listed = await server.client.memories.list({ limit: 100, scope: { userId } });
  return listed.memories.map((memory) => memory.content).sort();
}

describe("capture: 'turns' keeps what is worth keeping", () => {
  it('a question-only turn stores nothing', async () => {
    const conversation = chat('question-user', ['It is sunny in Lisbon today.']);
    await conversation.say("What's the weather like in Lisbon today?");
    expect(await stored('question-user')).toEqual([]);
    expect(conversation.events).toEqual([
      { type: 'captured', mode: 'turns', added: [], duplicates: 0, superseded: [] },
    ]);
    expect(conversation.onError).not.toHaveBeenCalled();
  });

  it('a statement is stored, as the user’s note', async () => {
    const conversation = chat('statement-user', ['Noted.']);
    await conversation.say('I work as a nurse in Porto.');
    const [memory, ...others] = (await server.client.memories.list({ scope: conversation.scope })).memories;
    expect(others).toEqual([]);
    expect(memory).toMatchObject({
      content: 'User: I work as a nurse in Porto.',
      type: 'note',
      tags: ['capture:turn'],
      metadata: { capture: 'turn', role: 'user' },
    });
  });

  it('a mixed message keeps only the statement', async () => {
    const conversation = chat('mixed-user', ['Try the cafés around Mitte.']);
    await conversation.say('I moved to Berlin last month. Can you suggest cafés near my flat?');
    expect(await stored('mixed-user')).toEqual(['User: I moved to Berlin last month.']);
  });

  it('a stated fact is stored whoever it is about; small talk is not', async () => {
    const conversation = chat('fact-user', ['Noted.', 'You are welcome!']);
    await conversation.say('The meeting with Dana is at 3pm on Thursday.');
    await conversation.say("Thanks, Maria! That's amazing.");
    expect(await stored('fact-user')).toEqual(['User: The meeting with Dana is at 3pm on Thursday.']);
  });

  it('a turn where the model called addMemory stores no raw user turn: the tool’s memory exists once', async () => {
    const scope = { userId: 'tool-write-user' };
    const events: CaptureEvent[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        generated([toolCall('addMemory', { content: 'The user is allergic to peanuts.' })]),
        textResult('Saved: you are allergic to peanuts.'),
      ],
    });
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      capture: 'turns',
      onCapture: (event) => events.push(event),
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware }),
      tools: memoryTools({ client: server.client, scope }),
      stopWhen: isStepCount(3),
      prompt: "I'm allergic to peanuts, and I always carry an EpiPen. Please remember that.",
    });
    await middleware.flush();
    expect(await stored('tool-write-user')).toEqual(['The user is allergic to peanuts.']);
    expect(events).toEqual([{ type: 'captured', mode: 'turns', added: [], duplicates: 0, superseded: [] }]);
  });

  it('an assistant reply is not stored by itself, not even a proposal', async () => {
    const conversation = chat('reply-user', [
      'I recommend Postgres for the orders table. Want me to sketch the schema?',
    ]);
    await conversation.say("I'm designing the database for my bakery's web shop.");
    expect(await stored('reply-user')).toEqual(["User: I'm designing the database for my bakery's web shop."]);
  });

  it('after "yes, let’s do that" the previous proposal is stored as accepted, and recalled in the next turn', async () => {
    const conversation = chat('accept-user', [
      'Postgres handles concurrent orders well. I recommend Postgres for the orders table. Want me to sketch the schema?',
      'Here is the schema.',
      'You chose Postgres.',
    ]);
    await conversation.say("I'm designing the database for my bakery's web shop.");
    await conversation.say('Yes, let’s do that.');

    const listed = await server.client.memories.list({ limit: 10, scope: conversation.scope });
    const accepted = listed.memories.find((memory) => memory.metadata['accepted'] === 'true');
    expect(accepted).toMatchObject({
      content: 'Assistant (accepted): I recommend Postgres for the orders table.',
      type: 'note',
      tags: ['capture:turn'],
      metadata: { capture: 'turn', role: 'assistant', accepted: 'true' },
    });
    // The acceptance itself says nothing on its own: no "User: Yes, let's do that."
    expect(listed.memories).toHaveLength(2);

    await conversation.say('Which database did we pick for the orders?');
    const context = systemMessages(conversation.model.doGenerateCalls[2]!).join('\n');
    expect(context).toContain('Assistant (accepted): I recommend Postgres for the orders table.');
  });

  it('a reply the user turns down is not stored; what the user says instead is', async () => {
    const conversation = chat('decline-user', ['I recommend Postgres for the orders table.', 'SQLite it is.']);
    await conversation.say("I'm designing the database for my bakery's web shop.");
    await conversation.say("No, I'd rather keep everything in SQLite.");
    expect(await stored('decline-user')).toEqual([
      "User: I'm designing the database for my bakery's web shop.",
      "User: No, I'd rather keep everything in SQLite.",
    ]);
  });

  it('filler still stores nothing, even after an answer', async () => {
    const conversation = chat('filler-user', ['Paris is the capital of France.', 'You are welcome!', 'Bye!']);
    await conversation.say('What is the capital of France?');
    await conversation.say('Thanks!');
    await conversation.say('ok');
    expect(await stored('filler-user')).toEqual([]);
    expect(conversation.events.map((event) => event.added.length)).toEqual([0, 0, 0]);
  });
});
