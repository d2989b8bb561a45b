import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InternalError, RequestAbortedError, TimeoutError } from '../src/index.js';
import { API_KEY, API_URL, createTestClient, errorEnvelope, MCP_URL, successEnvelope } from './helpers.js';

interface Seen {
  path: string;
  headers: Record<string, string>;
}

const seen: Seen[] = [];
let answer: (path: string) => Response | Promise<Response> = () => HttpResponse.json(successEnvelope({}));

const server = setupServer(
  http.all(`${API_URL}/*`, ({ request }) => {
    const path = new URL(request.url).pathname.replace('/api/sdk/v1', '');
    seen.push({ path, headers: Object.fromEntries(request.headers) });
    return answer(path);
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
  answer = () => HttpResponse.json(successEnvelope({}));
  vi.useRealTimers();
});
afterAll(() => server.close());

const busy = () =>
  HttpResponse.json(errorEnvelope('SERVER_BUSY', 503, 'internal_error', { retryAfterSeconds: 30 }), {
    status: 503,
    headers: { 'retry-after': '30' },
  });

describe('signal', () => {
  it('rejects at once with RequestAbortedError when already aborted, sending nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    const error = await createTestClient()
      .memories.add({ content: 'x' }, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ABORTED', retryable: false, status: null, operationId: 'memories.add' });
    expect((error as Error).cause).toEqual(new Error('user left'));
    expect(seen).toHaveLength(0);
  });

  it('aborts the attempt in flight, and an abort is never retried', async () => {
    answer = async () => {
      await delay(5_000);
      return HttpResponse.json(successEnvelope({}));
    };
    const controller = new AbortController();
    const pending = createTestClient().memories.search({ query: 'q' }, { signal: controller.signal });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('The call was aborted (memories.search: POST /api/sdk/v1/memories/search)');
    expect(seen).toHaveLength(1);
  });

  it('aborts the wait before a retry', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    answer = busy;
    const controller = new AbortController();
    // No total limit, so the client does wait out the 30 s Retry-After.
    const pending = createTestClient({ totalTimeoutMs: false })
      .memories.add({ content: 'x' }, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(1_000); // well inside the 30 s Retry-After
    controller.abort();
    expect(RequestAbortedError.isInstance(await pending)).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('stops the retries: no attempt goes out after the abort', async () => {
    // Every attempt fails at once and may be retried (a read): only the abort ends the call early.
    answer = () => HttpResponse.json(errorEnvelope('INTERNAL_ERROR', 500, 'internal_error'), { status: 500 });
    const controller = new AbortController();
    const pending = createTestClient({ maxRetries: 50, retry: { initialDelayMs: 20, maxDelayMs: 20 } })
      .memories.search({ query: 'q' }, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2));
    controller.abort(new Error('request finished'));
    const error = await pending;
    const attemptsAtAbort = seen.length;
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect((error as Error).cause).toEqual(new Error('request finished'));
    // Well past several more backoffs: still no new attempt.
    await delay(150);
    expect(seen).toHaveLength(attemptsAtAbort);
    expect(attemptsAtAbort).toBeLessThan(51);
  });
});

describe('totalTimeoutMs', () => {
  it('ends a call to a server that never answers at the total, aborting the attempt in flight', async () => {
    let aborted = false;
    server.use(
      http.all(`${API_URL}/*`, ({ request }) => {
        seen.push({ path: new URL(request.url).pathname, headers: {} });
        request.signal.addEventListener('abort', () => {
          aborted = true;
        });
        return new Promise<Response>(() => undefined);
      }),
    );
    const error = await createTestClient({ timeoutMs: 60_000, maxRetries: 5 })
      .memories.search({ query: 'q' }, { totalTimeoutMs: 100 })
      .catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      "No response within the call's total of 100 ms (memories.search: POST /api/sdk/v1/memories/search)",
    );
    expect(seen).toHaveLength(1);
    await vi.waitFor(() => expect(aborted).toBe(true));
  });

  it('does not start a retry whose wait would end past the total: the real error comes back at once', async () => {
    answer = busy; // Retry-After: 30 s, past the default total of 15 s
    const error = await createTestClient()
      .memories.search({ query: 'q' })
      .catch((caught: unknown) => caught);
    expect(InternalError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SERVER_BUSY', retryAfterSeconds: 30 });
    expect(seen).toHaveLength(1);
  });

  it('still retries while the waits fit in the total', async () => {
    let attempts = 0;
    answer = () => {
      attempts += 1;
      return attempts < 3
        ? HttpResponse.json(errorEnvelope('INTERNAL_ERROR', 500, 'internal_error'), { status: 500 })
        : HttpResponse.json(successEnvelope({ count: 0 }));
    };
    await expect(createTestClient({ totalTimeoutMs: 5_000 }).memories.search({ query: 'q' })).resolves.toEqual({
      count: 0,
    });
    expect(seen).toHaveLength(3);
  });

  it('is on by default (15 s), and false switches it off', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    server.use(
      http.all(`${API_URL}/*`, ({ request }) => {
        seen.push({ path: new URL(request.url).pathname, headers: {} });
        return new Promise<Response>(() => undefined);
      }),
    );
    const settled: unknown[] = [];
    void createTestClient({ timeoutMs: 60_000 })
      .memories.search({ query: 'q' })
      .catch((caught: unknown) => settled.push(caught));
    void createTestClient({ timeoutMs: 60_000, totalTimeoutMs: false })
      .memories.search({ query: 'q' })
      .catch((caught: unknown) => settled.push(caught));
    await vi.advanceTimersByTimeAsync(14_900);
    expect(settled).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(settled).toHaveLength(1);
    expect((settled[0] as Error).message).toContain("the call's total of 15000 ms");
    await vi.advanceTimersByTimeAsync(50_000);
    // The call without a total is still waiting on its 60 s attempt.
    expect(settled).toHaveLength(1);
  });

  it('rejects a nonsense total with a TypeError', async () => {
    await expect(createTestClient().health({ totalTimeoutMs: 0 })).rejects.toThrow('totalTimeoutMs');
    expect(() => createTestClient({ totalTimeoutMs: Number.NaN })).toThrow('totalTimeoutMs');
  });
});

describe('timeoutMs, maxRetries and headers per call', () => {
  it('overrides the client timeout for one call', async () => {
    answer = async () => {
      await delay(200);
      return HttpResponse.json(successEnvelope({}));
    };
    const client = createTestClient({ timeoutMs: 5_000, maxRetries: 0 });
    const error = await client.memories.add({ content: 'x' }, { timeoutMs: 20 }).catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('No response within 20 ms');
  });

  it('overrides the client retries for one call', async () => {
    answer = busy;
    await expect(
      createTestClient({ maxRetries: 5 }).memories.add({ content: 'x' }, { maxRetries: 0 }),
    ).rejects.toMatchObject({
      code: 'SERVER_BUSY',
    });
    expect(seen).toHaveLength(1);
  });

  it('sends the call headers over the client headers and the key', async () => {
    const client = createTestClient({ headers: { 'x-team': 'core', 'x-trace': 'client' } });
    await client.memories.list({}, { headers: { 'x-trace': 'call-1', authorization: 'Bearer mem_other' } });
    await client.memories.list();
    expect(seen.map(({ headers }) => [headers['x-team'], headers['x-trace'], headers.authorization])).toEqual([
      ['core', 'call-1', 'Bearer mem_other'],
      ['core', 'client', `Bearer ${API_KEY}`],
    ]);
  });

  it('gives both calls of context.get with includeSessionSummary the options', async () => {
    await createTestClient().context.get(
      { query: 'q', sessionId: 's1', includeSessionSummary: true },
      { headers: { 'x-trace': 'both' } },
    );
    expect(seen.map(({ path, headers }) => [path, headers['x-trace']]).sort()).toEqual([
      ['/context/get', 'both'],
      ['/sessions/s1/snapshot', 'both'],
    ]);
  });

  it('rejects nonsense per-call options with a TypeError', async () => {
    const client = createTestClient();
    await expect(client.health({ timeoutMs: -1 })).rejects.toThrow(TypeError);
    await expect(client.health({ maxRetries: 1.5 })).rejects.toThrow('maxRetries');
    expect(seen).toHaveLength(0);
  });
});

describe('over mcp', () => {
  const toolCalls: Array<{ name: string; trace: string | null }> = [];
  let toolDelayMs = 0;

  // A minimal stateless MCP server, as in mcp-transport.test.ts.
  function useMcpServer() {
    server.use(
      http.get(MCP_URL, () => new HttpResponse(null, { status: 405 })),
      http.delete(MCP_URL, () => new HttpResponse(null, { status: 405 })),
      http.post(MCP_URL, async ({ request }) => {
        const message = (await request.json()) as { id?: number; method: string; params?: Record<string, unknown> };
        if (message.id === undefined) return new HttpResponse(null, { status: 202 });
        const reply = (result: unknown) => HttpResponse.json({ jsonrpc: '2.0', id: message.id, result });
        if (message.method === 'initialize') {
          return reply({
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'fake', version: '0.0.0' },
          });
        }
        toolCalls.push({ name: String(message.params?.name), trace: request.headers.get('x-trace') });
        await delay(toolDelayMs);
        return reply({ content: [], structuredContent: successEnvelope({ count: 0 }) });
      }),
    );
  }
  afterEach(() => {
    toolCalls.length = 0;
    toolDelayMs = 0;
  });

  it('sends per-call headers on that call only', async () => {
    useMcpServer();
    const client = createTestClient({ baseUrl: MCP_URL });
    await client.memories.list({}, { headers: { 'x-trace': 'call-1' } });
    await client.memories.list();
    expect(toolCalls).toEqual([
      { name: 'list_memories', trace: 'call-1' },
      { name: 'list_memories', trace: null },
    ]);
    await client.close();
  });

  it('aborts a tool call and honours a per-call timeout', async () => {
    useMcpServer();
    toolDelayMs = 2_000;
    const client = createTestClient({ baseUrl: MCP_URL });
    const controller = new AbortController();
    const pending = client.memories
      .search({ query: 'q' }, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(toolCalls).toHaveLength(1));
    controller.abort();
    const aborted = await pending;
    expect(RequestAbortedError.isInstance(aborted)).toBe(true);
    expect(aborted).toMatchObject({ operationId: 'memories.search', endpoint: 'MCP tool search_memories at /api/mcp' });
    expect(toolCalls).toHaveLength(1);
    const late = await client.memories.add({ content: 'x' }, { timeoutMs: 30 }).catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(late)).toBe(true);
    await client.close();
  });
});
