import { createMemoryClient, type MemoryClient } from '@memory-service/client';
import { generateText, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryMiddleware, type SessionEvent, type SessionOptions } from '../src/index.js';
import { API_KEY, type MemoryServer, startMemoryServer } from './harness.js';
import { echoModel, systemMessages } from './mock-model.js';
import { recordedEvents } from './session-transcript.js';

let server: MemoryServer;
beforeAll(async () => {
  server = await startMemoryServer();
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A chat over a middleware with the session lifecycle: `say` runs one turn with the whole history. */
function chat(
  session: SessionOptions,
  {
    stream = false,
    userId = 'lifecycle',
    client = server.client,
  }: { stream?: boolean; userId?: string; client?: MemoryClient } = {},
) {
  const events: SessionEvent[] = [];
  const onError = vi.fn();
  const model = echoModel((options) => `reply ${options.prompt.filter((message) => message.role === 'user').length}`);
  const middleware = memoryMiddleware({
    client,
    scope: { userId },
    session: { ...session, onEvent: (event) => events.push(event) },
    onError,
  });
  const wrapped = wrapLanguageModel({ model, middleware });
  const messages: ModelMessage[] = [];
  async function say(text: string): Promise<string> {
    messages.push({ role: 'user', content: text });
    const reply = stream
      ? await streamText({ model: wrapped, messages }).text
      : (await generateText({ model: wrapped, messages })).text;
    messages.push({ role: 'assistant', content: reply });
    return reply;
  }
  const sessionIds = () => events.flatMap((event) => (event.type === 'started' ? [event.sessionId] : []));
  return { say, events, sessionIds, onError, model, scope: { userId } };
}

describe('session lifecycle', () => {
  it('starts a session and checkpoints user turns and generated replies', async () => {
    const conversation = chat({});
    await conversation.say('Plan the release of version two.');
    await conversation.say('Add a rollback step to the plan.');

    expect(conversation.sessionIds()).toHaveLength(1);
    const events = await recordedEvents(server.client, conversation.sessionIds()[0]!, conversation.scope);
    expect(events).toEqual([
      { heading: 'user · message', content: 'Plan the release of version two.' },
      { heading: 'assistant · message', content: 'reply 1' },
      { heading: 'user · message', content: 'Add a rollback step to the plan.' },
      { heading: 'assistant · message', content: 'reply 2' },
    ]);
    expect(conversation.onError).not.toHaveBeenCalled();
  });

  it('captures streamed text in the checkpoint', async () => {
    const conversation = chat({}, { stream: true });
    expect(await conversation.say('Stream me a long answer about releases.')).toBe('reply 1');
    const events = await recordedEvents(server.client, conversation.sessionIds()[0]!, conversation.scope);
    expect(events.map((event) => event.content)).toEqual(['Stream me a long answer about releases.', 'reply 1']);
  });

  it('continues a given session instead of starting one', async () => {
    const started = await server.client.sessions.start({ title: 'given', scope: { userId: 'lifecycle' } });
    const conversation = chat({ sessionId: started.sessionId });
    await conversation.say('This goes into the given session.');
    expect(conversation.sessionIds()).toEqual([]);
    const events = await recordedEvents(server.client, started.sessionId, conversation.scope);
    expect(events[0]).toEqual({ heading: 'user · message', content: 'This goes into the given session.' });
  });

  it('starts a new session when the open one was ended elsewhere (e.g. by the endSession tool)', async () => {
    const conversation = chat({});
    await conversation.say('First message.');
    const [first] = conversation.sessionIds();
    await server.client.sessions.end({ sessionId: first!, scope: conversation.scope });
    await conversation.say('Second message, after the session was closed.');

    expect(conversation.sessionIds()).toHaveLength(2);
    const events = await recordedEvents(server.client, conversation.sessionIds()[1]!, conversation.scope);
    expect(events.map((event) => event.content)).toEqual(['Second message, after the session was closed.', 'reply 2']);
    expect(conversation.onError).not.toHaveBeenCalled();
  });

  it("checkpoint: 'meaningful' skips filler, false keeps nothing but still counts turns", async () => {
    const meaningful = chat({ checkpoint: 'meaningful' });
    await meaningful.say('Thanks!');
    await meaningful.say('Record that the release is on Monday.');
    const kept = await recordedEvents(server.client, meaningful.sessionIds()[0]!, meaningful.scope);
    expect(kept.map((event) => event.content)).toEqual(['reply 1', 'Record that the release is on Monday.', 'reply 2']);

    const silent = chat({ checkpoint: false, turnBudget: 1 });
    await silent.say('first');
    await silent.say('second');
    expect(silent.events.map((event) => event.type)).toEqual(['started', 'compacted', 'started']);
    const events = await recordedEvents(server.client, silent.sessionIds()[0]!, silent.scope);
    expect(events.map((event) => event.heading)).toEqual(['system · summary']);
  });
});

describe('compaction triggers', () => {
  it('count (turns): past the turn budget the session is summarised, ended as compacted, and a new one starts', async () => {
    const conversation = chat({ turnBudget: 2 });
    await conversation.say('Turn one about the billing migration.');
    await conversation.say('Turn two about the billing migration.');
    expect(conversation.events.map((event) => event.type)).toEqual(['started']);
    await conversation.say('Turn three starts fresh.');

    expect(conversation.events.map((event) => event.type)).toEqual(['started', 'compacted', 'started']);
    const compacted = conversation.events[1] as Extract<SessionEvent, { type: 'compacted' }>;
    expect(compacted.triggerHint).toBe('count');
    expect(compacted.reason).toBe('3 turns exceed the turn budget of 2');
    const [first, second] = conversation.sessionIds();
    const old = await server.client.sessions.snapshot(first!, conversation.scope);
    expect(old.snapshot.sourceTrigger).toBe('compacted');
    expect(old.snapshot.summary).toContain('Summary of a session of 2 turns');
    expect(old.snapshot.summary).toContain('- user: Turn one about the billing migration.');
    expect(old.snapshot.summary).toContain('- assistant: reply 2');
    // The new session carries the summary, then the turn that crossed the budget.
    const fresh = await recordedEvents(server.client, second!, conversation.scope);
    expect(fresh.map((event) => event.heading)).toEqual(['system · summary', 'user · message', 'assistant · message']);
    // The model saw the summary in place of the first two turns (so it counted one user message).
    expect(fresh.slice(1).map((event) => event.content)).toEqual(['Turn three starts fresh.', 'reply 1']);
    const third = conversation.model.doGenerateCalls[2]!;
    expect(third.prompt.map((message) => message.role)).toEqual(['system', 'user']);
    expect(systemMessages(third)[0]).toContain('- user: Turn one about the billing migration.');
  });

  it('count (tokens): past the token budget the session is compacted', async () => {
    const conversation = chat({ budgetTokens: 60 });
    await conversation.say('A short first turn.');
    await conversation.say('x'.repeat(200));
    const compacted = conversation.events.find((event) => event.type === 'compacted');
    expect(compacted).toMatchObject({ triggerHint: 'count' });
    expect(compacted?.type === 'compacted' && compacted.reason).toMatch(/tokens exceeds the budget of 60/);
  });

  it('time: a turn after the inactivity threshold starts a new session', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T09:00:00Z'));
    // A client made now reads the faked clock when it judges inactivity.
    const client = createMemoryClient({ ...server.clientOptions, apiKey: API_KEY });
    const conversation = chat({ inactivityThresholdMinutes: 30 }, { client });
    await conversation.say('Morning: check the deploy queue.');
    vi.setSystemTime(new Date('2026-06-01T09:20:00Z'));
    await conversation.say('Still here, twenty minutes later.');
    expect(conversation.sessionIds()).toHaveLength(1);
    vi.setSystemTime(new Date('2026-06-01T10:00:00Z'));
    await conversation.say('Back after a break.');

    expect(conversation.sessionIds()).toHaveLength(2);
    expect(conversation.events[1]).toMatchObject({ type: 'compacted', triggerHint: 'time' });
  });

  it('semantic: when taskCompleted says so, the session is compacted', async () => {
    const conversation = chat({ taskCompleted: ({ query }) => query.includes('done') });
    await conversation.say('Fix the flaky test.');
    await conversation.say('The fix is done, next topic.');
    expect(conversation.events[1]).toMatchObject({ type: 'compacted', triggerHint: 'semantic' });
  });

  it('includeSessionSummary: the compacted summary is injected into later calls', async () => {
    const conversation = chat({ turnBudget: 2, includeSessionSummary: true }, { userId: 'summary-user' });
    await conversation.say('We agreed to ship on Thursday.');
    await conversation.say('And to freeze the branch on Wednesday.');
    expect(systemMessages(conversation.model.doGenerateCalls[1]!)).toEqual([]);
    await conversation.say('What did we agree?');
    const memory = systemMessages(conversation.model.doGenerateCalls[2]!)[0]!;
    expect(memory).toContain('Summary of the earlier conversation:\nSummary of a session of 2 turns');
    expect(memory).toContain('- user: We agreed to ship on Thursday.');
    await conversation.say('And after that?');
    expect(conversation.sessionIds()).toHaveLength(2);
    expect(systemMessages(conversation.model.doGenerateCalls[3]!)[0]).toContain(
      '- user: We agreed to ship on Thursday.',
    );
  });
});
