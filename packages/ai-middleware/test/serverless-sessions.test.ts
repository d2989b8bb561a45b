import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMiddleware, type SessionEvent } from '../src/index.js';
import { interceptedClient, type MemoryServer, startMemoryServer } from './harness.js';
import { echoModel, systemMessages } from './mock-model.js';
import { recordedEvents } from './session-transcript.js';

let server: MemoryServer;
beforeAll(async () => {
  server = await startMemoryServer();
});
afterAll(() => server.close());

/**
 * A chat as a serverless route runs it: every request makes a new model and middleware, resumes the session whose id
 * the previous request left, and waits for the middleware's background work before returning.
 */
function serverlessChat(userId: string, session: { turnBudget?: number; budgetTokens?: number }) {
  const scope = { userId };
  const events: SessionEvent[] = [];
  const messages: ModelMessage[] = [];
  const model = echoModel((options) => `reply ${options.prompt.filter((message) => message.role === 'user').length}`);
  let sessionId: string | undefined;
  async function request(text: string) {
    messages.push({ role: 'user', content: text });
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      session: { ...session, sessionId, onEvent: (event) => events.push(event) },
    });
    const { text: answer } = await generateText({ model: wrapLanguageModel({ model, middleware }), messages });
    messages.push({ role: 'assistant', content: answer });
    await middleware.flush();
    sessionId = middleware.session.id;
    return middleware;
  }
  return { request, events, model, scope, sessionId: () => sessionId };
}

describe('sessions in a serverless route (a new middleware per request)', () => {
  it('six requests with turnBudget 2 compact on schedule, as one long-lived middleware would', async () => {
    const chat = serverlessChat('serverless-turns', { turnBudget: 2 });
    for (const text of ['One: the API is REST.', 'Two: it runs on Fly.', 'Three.', 'Four.', 'Five.', 'Six.']) {
      await chat.request(text);
    }
    const compactions = chat.events.filter((event) => event.type === 'compacted');
    expect(compactions).toHaveLength(2);
    expect(compactions.map((event) => event.reason)).toEqual([
      '3 turns exceed the turn budget of 2',
      '3 turns exceed the turn budget of 2',
    ]);
    // Three sessions in all: the first (given by no one), then one per compaction.
    expect(chat.events.filter((event) => event.type === 'started')).toHaveLength(3);
  });

  it('after a compaction the summary replaces the earlier messages in the prompt the model gets', async () => {
    const chat = serverlessChat('serverless-prompt', { turnBudget: 2 });
    for (const text of ['One: the API is REST.', 'Two: it runs on Fly.', 'Three.', 'Four.', 'Five.', 'Six.']) {
      await chat.request(text);
    }
    const calls = chat.model.doGenerateCalls;
    const roles = (index: number) => calls[index]!.prompt.map((message) => message.role);
    expect(roles(1)).toEqual(['user', 'assistant', 'user']);
    // Request 4 resumes the session that request 3 started: the summary, then turns 3 and 4 only.
    expect(roles(3)).toEqual(['system', 'user', 'assistant', 'user']);
    const fourth = systemMessages(calls[3]!)[0]!;
    expect(fourth).toContain('Summary of the earlier conversation:');
    expect(fourth).toContain('- user: One: the API is REST.');
    expect(fourth).toContain('- assistant: reply 2');
    // Request 6: the second summary carries the first one's lines and turns 3 and 4.
    expect(roles(5)).toEqual(['system', 'user', 'assistant', 'user']);
    const sixth = systemMessages(calls[5]!)[0]!;
    expect(sixth).toContain('- user: One: the API is REST.');
    expect(sixth).toContain('- user: Four.');
    expect(sixth).not.toContain('- user: Five.');
  });

  it('exposes the session: its id for the next request, and end() closes it with a snapshot', async () => {
    const chat = serverlessChat('serverless-end', {});
    await chat.request('Plan the launch.');
    const middleware = await chat.request('Add a rollback step.');
    const sessionId = middleware.session.id;
    expect(sessionId).toBe(chat.sessionId());
    const events = await recordedEvents(server.client, sessionId!, chat.scope);
    expect(events.map((event) => event.content)).toEqual([
      'Plan the launch.',
      'reply 1',
      'Add a rollback step.',
      'reply 2',
    ]);
    const again = memoryMiddleware({ client: server.client, scope: chat.scope, session: { sessionId } });
    expect(again.session.id).toBe(sessionId);
    // recordedEvents closed it already; a fresh one ends cleanly.
    const fresh = memoryMiddleware({ client: server.client, scope: chat.scope, session: {} });
    await generateText({ model: wrapLanguageModel({ model: echoModel(), middleware: fresh }), prompt: 'hello' });
    const snapshot = await fresh.session.end();
    expect(snapshot).toMatchObject({ sourceTrigger: 'end', messageCount: 2 });
    expect(fresh.session.id).toBeUndefined();
  });

  it("a turn's context call and its checkpoint run side by side, not one after the other", async () => {
    const spans = new Map<string, { start: number; end: number }>();
    const client = interceptedClient(server, async (path, forward) => {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 60));
      const response = await forward();
      if (!spans.has(path)) spans.set(path, { start, end: performance.now() });
      return response;
    });
    const sessionId = (await server.client.sessions.start({ scope: { userId: 'side-by-side' } })).sessionId;
    const middleware = memoryMiddleware({ client, scope: { userId: 'side-by-side' }, session: { sessionId } });
    await generateText({ model: wrapLanguageModel({ model: echoModel(), middleware }), prompt: 'What is next?' });
    const context = spans.get('/api/sdk/v1/context/get')!;
    const checkpoint = spans.get('/api/sdk/v1/sessions/checkpoint')!;
    expect(checkpoint.start).toBeLessThan(context.end);
    expect(context.start).toBeLessThan(checkpoint.end);
  });
});
