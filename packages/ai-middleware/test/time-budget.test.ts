import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { createMemoryClient, type MemoryClientOptions } from '@memory-service/client';
import { startServer } from '@memory-service/server';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_TIME_BUDGET_MS,
  type MemoryErrorHandler,
  MemoryTimeBudgetError,
  memoryMiddleware,
  memoryTools,
} from '../src/index.js';
import { API_KEY } from './harness.js';
import { echoModel, systemMessages } from './mock-model.js';
import { refusedPortUrl, type SilentServer, startSilentServer } from './silent-server.js';

// Sanity limit only: every test asserts on what happened and in what order, not on how long it took.
const MARGIN_MS = 2_000;
const PLAIN_PROMPT = [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }];

/** A model and an onError that record, in order, when each was called. */
function recorder() {
  const events: string[] = [];
  const onError = vi.fn<MemoryErrorHandler>((_error, { operation }) => {
    events.push(`onError:${operation}`);
  });
  const model = echoModel((options: LanguageModelV4CallOptions) => {
    events.push('model');
    return systemMessages(options).length === 0 ? 'answered without memory' : 'answered with memory';
  });
  return { events, onError, model };
}

/** A client with the package defaults (10 s per attempt, 2 retries), counting the requests it starts. */
function countingClient(baseUrl: string, options: MemoryClientOptions = {}) {
  const counter = { requests: 0 };
  const client = createMemoryClient({
    baseUrl,
    apiKey: API_KEY,
    ...options,
    fetch: (input, init) => {
      counter.requests += 1;
      return fetch(input, init);
    },
  });
  return { client, counter };
}

describe('a memory service that accepts the connection and never answers', () => {
  let silent: SilentServer;
  beforeEach(async () => {
    silent = await startSilentServer();
  });
  afterEach(() => silent.close());

  it('generateText: the model is called without memory at the default budget, and onError says why', async () => {
    const { events, onError, model } = recorder();
    const { client } = countingClient(silent.url);
    const middleware = memoryMiddleware({ client, onError });
    const started = performance.now();
    const result = await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });

    expect(result.text).toBe('answered without memory');
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(model.doGenerateCalls[0]!.prompt).toEqual(PLAIN_PROMPT);
    // Told once, before the model was called; the aborted context.get is not reported on its own.
    expect(events).toEqual(['onError:timeBudget', 'model']);
    const error = onError.mock.calls[0]![0];
    expect(MemoryTimeBudgetError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'MEMORY_TIME_BUDGET_EXCEEDED',
      timeBudgetMs: DEFAULT_TIME_BUDGET_MS,
      pending: ['context.get'],
    });
    // The request was aborted, not abandoned: the client closed its connection.
    await vi.waitFor(() => expect(silent.closedByClient).toBeGreaterThanOrEqual(1));
    expect(performance.now() - started).toBeLessThan(DEFAULT_TIME_BUDGET_MS + MARGIN_MS);
  });

  it('streamText obeys the same budget, session calls included; the answer does not wait for its checkpoint', async () => {
    const { events, onError, model } = recorder();
    const { client } = countingClient(silent.url);
    const middleware = memoryMiddleware({
      client,
      onError,
      timeBudgetMs: 400,
      session: { turnBudget: 10 },
      capture: 'turns',
    });
    const started = performance.now();
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), prompt: 'I moved to Berlin.' });

    expect(await result.text).toBe('answered without memory');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.doStreamCalls[0]!.prompt.map((message) => message.role)).toEqual(['user']);
    expect(events).toEqual(['onError:timeBudget', 'model']);
    const error = onError.mock.calls[0]![0] as MemoryTimeBudgetError;
    expect(error.timeBudgetMs).toBe(400);
    expect([...error.pending].sort()).toEqual(['context.get', 'sessions.start']);
    await vi.waitFor(() => expect(silent.closedByClient).toBeGreaterThanOrEqual(2));
    expect(performance.now() - started).toBeLessThan(400 + MARGIN_MS);
  });

  it('a tool loop waits once: the later steps reuse the turn without asking memory again', async () => {
    const { onError } = recorder();
    const { client, counter } = countingClient(silent.url);
    const middleware = memoryMiddleware({ client, onError, timeBudgetMs: 300 });
    const wrapped = wrapLanguageModel({ model: echoModel(), middleware });
    const params = { prompt: [...PLAIN_PROMPT] } as LanguageModelV4CallOptions;
    await middleware.transformParams!({ type: 'generate', params, model: wrapped });
    const again = await middleware.transformParams!({ type: 'generate', params, model: wrapped });
    expect(again.prompt).toEqual(PLAIN_PROMPT);
    expect(counter.requests).toBe(1);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('memory tools answer TIMEOUT at their timeoutMs instead of holding the tool loop', async () => {
    const { client } = countingClient(silent.url);
    const tools = memoryTools({ client, timeoutMs: 300 });
    const output = await tools.getContext.execute!(
      { query: 'deploys', limit: 5, mode: 'all' },
      { toolCallId: 'call-1', messages: [], context: {} },
    );
    expect(output).toMatchObject({ ok: false, error: { code: 'TIMEOUT', retryable: true } });
    await vi.waitFor(() => expect(silent.closedByClient).toBeGreaterThanOrEqual(1));
  });

  it('memory tools stop when the model call is aborted', async () => {
    const { client } = countingClient(silent.url);
    const tools = memoryTools({ client, timeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = tools.searchMemories.execute!(
      { query: 'deploys', limit: 5 },
      { toolCallId: 'call-1', messages: [], context: {}, abortSignal: controller.signal },
    );
    await vi.waitFor(() => expect(silent.accepted).toBe(1));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
  });
});

describe('a memory service whose port refuses connections', () => {
  it('generateText: one attempt, no retry backoff, the model called without memory', async () => {
    const { events, onError, model } = recorder();
    const { client, counter } = countingClient(await refusedPortUrl());
    const middleware = memoryMiddleware({ client, onError });
    const started = performance.now();
    const result = await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });

    expect(result.text).toBe('answered without memory');
    expect(model.doGenerateCalls[0]!.prompt).toEqual(PLAIN_PROMPT);
    // The real reason, not the budget: the connection failed before it ran out.
    expect(events).toEqual(['onError:context.get', 'model']);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'CONNECTION_ERROR' });
    // The client's default is 2 retries after 500 ms and 1 s of backoff; before the model call there are none.
    expect(counter.requests).toBe(1);
    expect(performance.now() - started).toBeLessThan(DEFAULT_TIME_BUDGET_MS + MARGIN_MS);
  });

  it('streamText likewise, with the session start refused too', async () => {
    const { events, onError, model } = recorder();
    const { client, counter } = countingClient(await refusedPortUrl());
    const middleware = memoryMiddleware({ client, onError, session: {} });
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });

    expect(await result.text).toBe('answered without memory');
    expect(events.at(-1)).toBe('model');
    expect(events.slice(0, -1).sort()).toEqual(['onError:context.get', 'onError:sessions.start']);
    expect(counter.requests).toBe(2);
  });
});

describe('a healthy memory service', () => {
  let running: Awaited<ReturnType<typeof startServer>>;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ai-middleware-budget-'));
    running = await startServer({ port: 0, dataDir, bootstrapApiKey: API_KEY, logLevel: 'silent' });
  }, 30_000);
  afterAll(async () => {
    await running.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('still injects its context, with generateText and streamText, and nothing is reported', async () => {
    const client = createMemoryClient({ baseUrl: running.url, apiKey: API_KEY });
    await client.memories.add({ content: 'Always answer in British English.', type: 'rule' });
    const { onError, model } = recorder();
    const middleware = memoryMiddleware({ client, onError });
    const wrapped = wrapLanguageModel({ model, middleware });

    expect((await generateText({ model: wrapped, prompt: 'hello' })).text).toBe('answered with memory');
    expect(systemMessages(model.doGenerateCalls[0]!)[0]).toContain('Always answer in British English.');
    expect(await streamText({ model: wrapped, prompt: 'hello again' }).text).toBe('answered with memory');
    expect(systemMessages(model.doStreamCalls[0]!)[0]).toContain('Always answer in British English.');
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('the timeBudgetMs option', () => {
  it('refuses a budget that is not a positive number of milliseconds', () => {
    const client = createMemoryClient({ baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY });
    expect(() => memoryMiddleware({ client, timeBudgetMs: 0 })).toThrow('timeBudgetMs');
    expect(() => memoryMiddleware({ client, timeBudgetMs: Number.NaN })).toThrow('timeBudgetMs');
  });

  it('the default warning says the budget ran out', async () => {
    const silent = await startSilentServer();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const middleware = memoryMiddleware({ client: countingClient(silent.url).client, timeBudgetMs: 200 });
      await generateText({ model: wrapLanguageModel({ model: echoModel(), middleware }), prompt: 'hello' });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toBe(
        '[memory] time budget exceeded; the model call continues without memory: Memory did not answer within the ' +
          'time budget of 200 ms (still waiting on context.get)',
      );
    } finally {
      warn.mockRestore();
      await silent.close();
    }
  });
});
