import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, isStepCount, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CaptureEvent, type CaptureOption, memoryMiddleware, memoryTools } from '../src/index.js';
import { interceptedClient, type MemoryServer, startMemoryServer } from './harness.js';
import { echoModel, generated, streamedText, textResult, toolCall } from './mock-model.js';

let server: MemoryServer;
beforeAll(async () => {
  server = await startMemoryServer();
});
afterAll(() => server.close());

/** A chat whose middleware captures; `say` runs one turn with the whole history. */
function chat(capture: CaptureOption, userId: string, reply: (question: string) => string = () => 'Noted.') {
  const events: CaptureEvent[] = [];
  const onError = vi.fn();
  const model = echoModel((options) => {
    const last = options.prompt.at(-1);
    const text = last?.role === 'user' ? last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [];
    return reply(text.join(' '));
  });
  const middleware = memoryMiddleware({
    client: server.client,
    scope: { userId },
    capture,
    onCapture: (event) => events.push(event),
    onError,
  });
  const wrapped = wrapLanguageModel({ model, middleware });
  const messages: ModelMessage[] = [];
  async function say(text: string): Promise<string> {
    messages.push({ role: 'user', content: text });
    const { text: answer } = await generateText({ model: wrapped, messages });
    messages.push({ role: 'assistant', content: answer });
    await middleware.flush();
    return answer;
  }
  return { say, events, onError, middleware, model, scope: { userId } };
}

async function stored(userId: string) {
  const listed = await server.client.memories.list({ limit: 100, scope: { userId } });
  return listed.memories.map((memory) => memory.content).sort();
}

/** An extraction model that answers each extraction call with the next scripted output (a JSON text). */
function extractor(outputs: string[]) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      calls.push(options);
      return textResult(outputs.shift() ?? '{"memories":[]}');
    },
  });
  return { model, calls };
}

const fact = (content: string, extra: Record<string, unknown> = {}) => ({
  content,
  kind: 'fact',
  type: 'fact',
  layer: 'long_term',
  replaces: null,
  ...extra,
});

describe("capture: 'turns'", () => {
  it('stores what the user states after a three-turn chat, skipping filler, answers and duplicates', async () => {
    const conversation = chat('turns', 'turns-user', (question) =>
      question.startsWith('Thanks') ? 'You are welcome!' : `About "${question}": noted.`,
    );
    await conversation.say('I live in Lisbon and work as a pastry chef.');
    await conversation.say('Thanks!');
    await conversation.say('I live in Lisbon and work as a pastry chef.');

    expect(await stored('turns-user')).toEqual(['User: I live in Lisbon and work as a pastry chef.']);
    expect(conversation.events.map((event) => [event.added.length, event.duplicates])).toEqual([
      [1, 0],
      [0, 0],
      [0, 1],
    ]);
    expect(conversation.onError).not.toHaveBeenCalled();
    const listed = await server.client.memories.list({ limit: 10, scope: conversation.scope });
    expect(listed.memories[0]).toMatchObject({ type: 'note', layer: 'long_term', tags: ['capture:turn'] });
  });

  it('an app that sends only the last message: the same words twice are two turns, both captured and checkpointed', async () => {
    const scope = { userId: 'last-message-user' };
    const events: CaptureEvent[] = [];
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      session: {},
      capture: 'turns',
      onCapture: (event) => events.push(event),
    });
    const model = wrapLanguageModel({ model: echoModel(() => 'Noted.'), middleware });
    for (let turn = 0; turn < 2; turn += 1) {
      await generateText({ model, prompt: 'I deploy the staging branch on Fridays.' });
      await middleware.flush();
    }
    expect(events.map((event) => [event.added.length, event.duplicates])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    const ended = await middleware.session.end();
    expect(ended?.messageCount).toBe(4);
  });

  it('a later turn recalls what an earlier one said, without any tool', async () => {
    const conversation = chat('turns', 'recall-user', () => 'Got it.');
    await conversation.say('My favourite tea is genmaicha.');
    await conversation.say('Which tea should I buy?');
    const injected = conversation.model.doGenerateCalls[1]!.prompt[0]!;
    expect(injected).toMatchObject({ role: 'system' });
    expect(injected.content).toContain('User: My favourite tea is genmaicha.');
  });

  it('captures once per user turn, after the last step of a tool loop', async () => {
    const scope = { userId: 'loop-capture-user' };
    const events: CaptureEvent[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [generated([toolCall('searchMemories', { query: 'plants' })]), textResult('Water them weekly.')],
    });
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      capture: 'turns',
      onCapture: (e) => events.push(e),
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware }),
      tools: memoryTools({ client: server.client, scope }),
      stopWhen: isStepCount(3),
      prompt: 'I keep three ferns on my balcony.',
    });
    await middleware.flush();
    expect(events).toHaveLength(1);
    // A tool that only reads (searchMemories) leaves the user's statement to capture.
    expect(events[0]!.added.map((memory) => memory.content)).toEqual(['User: I keep three ferns on my balcony.']);
  });

  it('captures a streamed answer once the stream has closed', async () => {
    const scope = { userId: 'stream-capture-user' };
    const model = new MockLanguageModelV4({ doStream: async () => streamedText('Seven bikes is a lot.') });
    const middleware = memoryMiddleware({ client: server.client, scope, capture: 'turns' });
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), prompt: 'I own seven bicycles.' });
    expect(await result.text).toBe('Seven bikes is a lot.');
    await middleware.flush();
    expect(await stored('stream-capture-user')).toEqual(['User: I own seven bicycles.']);
  });

  it('never delays the answer: it arrives while capture is still writing, and a failed write goes to onError', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const busy = { success: false, error: { code: 'SERVER_BUSY', message: 'busy' } };
    const client = interceptedClient(server, async (path, forward) => {
      if (!path.endsWith('/memories/add')) return forward();
      await gate;
      return Response.json(busy, { status: 503 });
    });
    const onError = vi.fn();
    const middleware = memoryMiddleware({ client, scope: { userId: 'slow-user' }, capture: 'turns', onError });
    const { text } = await generateText({
      model: wrapLanguageModel({ model: echoModel(() => 'Answered at once.'), middleware }),
      prompt: 'Remember my locker is number 42.',
    });
    expect(text).toBe('Answered at once.');
    expect(onError).not.toHaveBeenCalled();
    release();
    await middleware.flush();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![1]).toEqual({ operation: 'capture' });
  });
});

describe('capture: { extract }', () => {
  it('stores the facts the model extracts, with their type and layer, and shows it the stored memories', async () => {
    const extraction = extractor([
      JSON.stringify({
        memories: [
          fact('The user is allergic to peanuts.'),
          fact('The user decided to run the marathon in April.', { kind: 'decision', type: 'decision' }),
        ],
      }),
    ]);
    await server.client.memories.add({ content: 'The user has a dog named Rex.', scope: { userId: 'extract-user' } });
    const conversation = chat({ extract: extraction.model }, 'extract-user');
    await conversation.say('I am allergic to peanuts, and I will run the marathon in April. Does Rex need a walk?');

    const listed = await server.client.memories.list({ limit: 10, scope: conversation.scope });
    const byContent = new Map(listed.memories.map((memory) => [memory.content, memory]));
    expect(byContent.get('The user is allergic to peanuts.')).toMatchObject({ type: 'fact', layer: 'long_term' });
    expect(byContent.get('The user decided to run the marathon in April.')).toMatchObject({ type: 'decision' });
    expect(conversation.events[0]).toMatchObject({ mode: 'extract', duplicates: 0, superseded: [] });
    // The extraction call saw the turn and the memories the turn's context brought, with their ids.
    const prompt = JSON.stringify(extraction.calls[0]!.prompt);
    expect(prompt).toContain('User: I am allergic to peanuts');
    expect(prompt).toContain('The user has a dog named Rex.');
    expect(extraction.calls[0]!.responseFormat).toMatchObject({ type: 'json' });
  });

  it('a correction supersedes the stored memory through consolidation, which keeps the old one as history', async () => {
    const scope = { userId: 'correction-user' };
    const old = await server.client.memories.add({ content: 'The user prefers dark mode.', type: 'fact', scope });
    const extraction = extractor([
      JSON.stringify({
        memories: [fact('The user prefers light mode.', { kind: 'correction', replaces: old.id })],
      }),
    ]);
    const conversation = chat({ extract: extraction.model }, 'correction-user');
    await conversation.say('Actually, I switched: I prefer light mode now. What mode do I prefer?');

    const event = conversation.events[0]!;
    expect(event.added.map((memory) => memory.content)).toEqual(['The user prefers light mode.']);
    expect(event.superseded).toEqual([old.id]);
    const found = await server.client.memories.search({ query: 'prefers mode', scope });
    expect(found.memories.map((memory) => memory.content)).toEqual(['The user prefers light mode.']);
    const listed = await server.client.memories.list({ limit: 10, scope });
    const history = listed.memories.find((memory) => memory.id === old.id);
    expect(history?.supersededBy).toBe(event.added[0]!.id);
  });

  it('shows the extractor what a memory tool saved during the turn, and does not store it twice', async () => {
    const scope = { userId: 'tool-and-extract-user' };
    const extraction = extractor([JSON.stringify({ memories: [fact('The user has a cat named Miso.')] })]);
    const events: CaptureEvent[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        generated([toolCall('addMemory', { content: 'The user has a cat named Miso.' })]),
        textResult('Saved.'),
      ],
    });
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      capture: { extract: extraction.model },
      onCapture: (event) => events.push(event),
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware }),
      tools: memoryTools({ client: server.client, scope }),
      stopWhen: isStepCount(3),
      prompt: 'Remember that my cat is called Miso.',
    });
    await middleware.flush();
    expect(JSON.stringify(extraction.calls[0]!.prompt)).toContain(
      'addMemory({\\"content\\":\\"The user has a cat named Miso.',
    );
    expect(events[0]).toMatchObject({ added: [], duplicates: 1 });
    expect(await stored('tool-and-extract-user')).toEqual(['The user has a cat named Miso.']);
  });

  it('stores a repeated extracted fact once, whatever its case, spacing or final full stop', async () => {
    const extraction = extractor([
      JSON.stringify({ memories: [fact('The user is vegan.'), fact('the user is  vegan')] }),
      JSON.stringify({ memories: [fact('The user is Vegan!')] }),
    ]);
    const conversation = chat({ extract: extraction.model }, 'repeat-extract-user');
    await conversation.say('I am vegan, by the way.');
    await conversation.say('Did I mention that I am vegan?');
    expect(await stored('repeat-extract-user')).toEqual(['The user is vegan.']);
    expect(conversation.events.map((event) => [event.added.length, event.duplicates])).toEqual([
      [1, 1],
      [0, 1],
    ]);
  });

  it('two app instances extracting one fact at once store it once: the server answers the copy as a duplicate', async () => {
    const scope = { userId: 'two-instances-user' };
    // Both adds are held until both arrived: each instance has already checked, and not found, the fact.
    let arrived = 0;
    let release: () => void = () => {};
    const bothArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const instance = () => {
      const events: CaptureEvent[] = [];
      const client = interceptedClient(server, async (path, forward) => {
        if (path.endsWith('/memories/add')) {
          arrived += 1;
          if (arrived === 2) release();
          await bothArrived;
        }
        return forward();
      });
      const extraction = extractor([JSON.stringify({ memories: [fact('The user works night shifts.')] })]);
      const middleware = memoryMiddleware({
        client,
        scope,
        capture: { extract: extraction.model },
        onCapture: (event) => events.push(event),
      });
      const model = wrapLanguageModel({ model: echoModel(() => 'Noted.'), middleware });
      return { events, run: () => generateText({ model, prompt: 'I work night shifts.' }), middleware };
    };
    const [first, second] = [instance(), instance()];
    await Promise.all([first.run(), second.run()]);
    await Promise.all([first.middleware.flush(), second.middleware.flush()]);

    expect(await stored('two-instances-user')).toEqual(['The user works night shifts.']);
    const events = [...first.events, ...second.events];
    expect(events.map((event) => [event.added.length, event.duplicates]).sort()).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('makes no extraction call for filler', async () => {
    const extraction = extractor([]);
    const conversation = chat({ extract: extraction.model }, 'filler-extract-user');
    await conversation.say('Thanks!');
    expect(extraction.calls).toHaveLength(0);
  });

  it('a malformed output is reported as a capture failure and stores nothing', async () => {
    const extraction = extractor(['{"memories":[{"content":"The user likes jazz.","kind":"vibe"}]}']);
    const conversation = chat({ extract: extraction.model }, 'malformed-user');
    expect(await conversation.say('I like jazz.')).toBe('Noted.');
    expect(conversation.onError).toHaveBeenCalledTimes(1);
    expect(conversation.onError.mock.calls[0]![1]).toEqual({ operation: 'capture' });
    expect(await stored('malformed-user')).toEqual([]);
  });

  it('stores a rule only when the app opts in; otherwise it is kept as an ordinary memory', async () => {
    const rule = () =>
      JSON.stringify({
        memories: [fact('Always answer in French.', { kind: 'preference', type: 'rule', layer: 'rule' })],
      });
    const refused = chat({ extract: extractor([rule()]).model }, 'rule-refused-user');
    await refused.say('Always answer me in French from now on.');
    const allowed = chat({ extract: extractor([rule()]).model, allowRuleWrites: true }, 'rule-allowed-user');
    await allowed.say('Always answer me in French from now on.');

    const [kept] = (await server.client.memories.list({ scope: refused.scope })).memories;
    expect(kept).toMatchObject({ content: 'Always answer in French.', type: 'note', layer: 'long_term' });
    const [ruled] = (await server.client.memories.list({ scope: allowed.scope })).memories;
    expect(ruled).toMatchObject({ content: 'Always answer in French.', type: 'rule', layer: 'rule' });
  });

  it('the wrapped model can extract for itself: its extraction call gets no memory context and is not captured', async () => {
    const scope = { userId: 'self-extract-user' };
    const base = new MockLanguageModelV4({
      doGenerate: async (options) =>
        options.responseFormat?.type === 'json'
          ? textResult(JSON.stringify({ memories: [fact('The user owns a red kayak.')] }))
          : textResult('Nice kayak!'),
    });
    const events: CaptureEvent[] = [];
    const options = { client: server.client, scope, onCapture: (event: CaptureEvent) => events.push(event) };
    const middleware = memoryMiddleware({ ...options, capture: 'off' });
    const wrapped = wrapLanguageModel({ model: base, middleware });
    const capturing = memoryMiddleware({ ...options, capture: { extract: wrapped } });
    await generateText({
      model: wrapLanguageModel({ model: base, middleware: capturing }),
      prompt: 'I own a red kayak.',
    });
    await capturing.flush();
    await middleware.flush();

    expect(events).toHaveLength(1);
    expect(await stored('self-extract-user')).toEqual(['The user owns a red kayak.']);
    const extractionCall = base.doGenerateCalls[1]!;
    expect(extractionCall.prompt.filter((message) => message.role === 'system')).toHaveLength(1);
    expect(JSON.stringify(extractionCall.prompt)).not.toContain('Memory from the memory service');
  });
});
