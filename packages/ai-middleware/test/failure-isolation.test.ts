import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMemoryClient } from '@memory-service/client';
import { startServer } from '@memory-service/server';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryMiddleware } from '../src/index.js';
import { API_KEY, unreachableClient } from './harness.js';
import { echoModel } from './mock-model.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('when the memory service is down', () => {
  it('generateText still answers with the prompt untouched, and onError is told once', async () => {
    const onError = vi.fn();
    const model = echoModel(() => 'still here');
    const middleware = memoryMiddleware({ client: unreachableClient(), onError });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware }),
      instructions: 'Be kind.',
      prompt: 'hello',
    });

    expect(result.text).toBe('still here');
    expect(model.doGenerateCalls[0]!.prompt).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    ]);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'CONNECTION_ERROR' });
    expect(onError.mock.calls[0]![1]).toEqual({ operation: 'context.get' });
  });

  it('a real server that stopped: the call still works, onError is told once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ai-middleware-down-'));
    const running = await startServer({ port: 0, dataDir, bootstrapApiKey: API_KEY, logLevel: 'silent' });
    const baseUrl = running.url;
    await running.close();
    await rm(dataDir, { recursive: true, force: true });

    const onError = vi.fn();
    const model = echoModel(() => 'answered');
    const middleware = memoryMiddleware({ client: { baseUrl, apiKey: API_KEY, maxRetries: 0 }, onError });
    const result = await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });
    expect(result.text).toBe('answered');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'CONNECTION_ERROR' });
  });

  it('streamText still streams, with the session lifecycle on too, and onError is told of each failed call', async () => {
    const onError = vi.fn();
    const model = echoModel(() => 'streamed anyway');
    const middleware = memoryMiddleware({ client: unreachableClient(), onError, session: { turnBudget: 2 } });
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });

    expect(await result.text).toBe('streamed anyway');
    expect(model.doStreamCalls[0]!.prompt.map((message) => message.role)).toEqual(['user']);
    await middleware.flush();
    // The turn's session start and its context call run side by side; each failure is told once.
    expect(onError.mock.calls.map((call) => call[1].operation).sort()).toEqual(['context.get', 'sessions.start']);
  });

  it('warns once on the console by default', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const model = echoModel();
    const middleware = memoryMiddleware({ client: unreachableClient() });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });

    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^\[memory\] context\.get failed; the model call continues/);
  });

  it('survives an onError handler that throws', async () => {
    const model = echoModel(() => 'fine');
    const middleware = memoryMiddleware({
      client: unreachableClient(),
      onError: () => {
        throw new Error('handler broke');
      },
    });
    const result = await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });
    expect(result.text).toBe('fine');
  });

  it('falls back to the last user message when extractQuery throws', async () => {
    const onError = vi.fn();
    const model = echoModel(() => 'fine');
    const middleware = memoryMiddleware({
      client: unreachableClient(),
      onError,
      extractQuery: () => {
        throw new Error('no query');
      },
    });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hello' });
    expect(onError.mock.calls.map((call) => call[1].operation)).toEqual(['extractQuery', 'context.get']);
  });

  it("passes the model call's abortSignal on: aborting stops the memory call, and is not reported as a failure", async () => {
    const controller = new AbortController();
    let memorySignal: AbortSignal | undefined;
    const client = createMemoryClient({
      baseUrl: 'http://memory.test',
      apiKey: API_KEY,
      maxRetries: 0,
      // A memory service that never answers: only an abort ends the call.
      fetch: (input, init) => {
        const signal = input instanceof Request ? input.signal : init?.signal;
        memorySignal = signal ?? undefined;
        return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
      },
    });
    const onError = vi.fn();
    const middleware = memoryMiddleware({ client, onError });
    const call = generateText({
      model: wrapLanguageModel({ model: echoModel(), middleware }),
      prompt: 'hello',
      abortSignal: controller.signal,
    }).catch(() => undefined);
    await vi.waitFor(() => expect(memorySignal).toBeDefined());
    controller.abort();
    await call;
    expect(memorySignal?.aborted).toBe(true);
    expect(onError).not.toHaveBeenCalled();
  });
});
