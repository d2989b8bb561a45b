import { createServer, type Server } from 'node:net';
import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FetchFunction } from '../src/index.js';
import { ConnectionError, InternalError, RateLimitError, TimeoutError, ValidationError } from '../src/index.js';
import { API_URL, attemptsOverTime, createTestClient, errorEnvelope, successEnvelope } from './helpers.js';

// Captured before msw patches the global fetch, to reach real sockets.
const unpatchedFetch = globalThis.fetch;

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** Answers a route with the given responses in turn (the last one repeats), counting the attempts. */
function answerInTurn(method: 'get' | 'post', path: string, responses: Array<() => Response>) {
  const counter = { attempts: 0 };
  server.use(
    http[method](`${API_URL}${path}`, () => {
      const response = responses[Math.min(counter.attempts, responses.length - 1)]!;
      counter.attempts += 1;
      return response();
    }),
  );
  return counter;
}

const envelope = (code: string, status: number, type: Parameters<typeof errorEnvelope>[2], retryable?: boolean) => () =>
  HttpResponse.json(errorEnvelope(code, status, type, undefined, undefined, retryable), { status });
// As the server sends it: details.retryAfterSeconds and the same wait in Retry-After.
const rateLimited = (seconds: string) => () =>
  HttpResponse.json(
    errorEnvelope('RATE_LIMITED', 429, 'rate_limit_error', { retryAfterSeconds: Number(seconds) }, undefined),
    { status: 429, headers: { 'retry-after': seconds } },
  );
const unavailable = envelope('INTERNAL_ERROR', 503, 'internal_error');
const ok = (data: unknown) => () => HttpResponse.json(successEnvelope(data));

describe('what is retried', () => {
  it('retries a 429 on a write, waiting what Retry-After says', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const counter = answerInTurn('post', '/memories/add', [rateLimited('2'), ok({ id: 'm1' })]);
    const result = createTestClient().memories.add({ content: 'x' });
    expect(await attemptsOverTime(counter, [0, 1_999, 1])).toEqual([1, 1, 2]);
    await expect(result).resolves.toEqual({ id: 'm1' });
  });

  it('caps a server-requested wait at maxRetryAfterMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const counter = answerInTurn('post', '/memories/add', [rateLimited('600'), ok({ id: 'm1' })]);
    const result = createTestClient({ retry: { maxRetryAfterMs: 50 } }).memories.add({ content: 'x' });
    expect(await attemptsOverTime(counter, [0, 49, 1])).toEqual([1, 1, 2]);
    await result;
  });

  it('retries a 503 on a read with exponential backoff', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const counter = answerInTurn('post', '/memories/search', [unavailable, unavailable, ok({ count: 0 })]);
    const result = createTestClient({ retry: { initialDelayMs: 100, maxDelayMs: 1_000 } }).memories.search({
      query: 'q',
    });
    // Attempts at 0, 100 (first backoff) and 300 ms (100 + 200).
    expect(await attemptsOverTime(counter, [0, 99, 1, 199, 1])).toEqual([1, 1, 2, 2, 3]);
    await expect(result).resolves.toEqual({ count: 0 });
  });

  it('retries a 503 on a GET route and a proxy 408 (no envelope) on a read-only POST', async () => {
    const snapshot = answerInTurn('get', '/sessions/s1/snapshot', [unavailable, ok({ sessionId: 's1' })]);
    const proxyTimeout = () => new HttpResponse('Request Timeout', { status: 408 });
    const context = answerInTurn('post', '/context/get', [proxyTimeout, ok({ memories: [] })]);
    const client = createTestClient();
    await client.sessions.snapshot('s1');
    await client.context.get({ query: 'q' });
    expect([snapshot.attempts, context.attempts]).toEqual([2, 2]);
  });

  it.each([
    ['SERVER_BUSY', 503, 'internal_error'],
    ['TENANT_DATABASE_NOT_READY', 409, 'validation_error'], // a 409 the contract marks retryable
  ] as const)('retries %s on a write: the server refused it before any work', async (code, status, type) => {
    const counter = answerInTurn('post', '/memories/add', [envelope(code, status, type, true), ok({ id: 'm1' })]);
    await expect(createTestClient().memories.add({ content: 'x' })).resolves.toEqual({ id: 'm1' });
    expect(counter.attempts).toBe(2);
  });

  it.each([
    ['INTERNAL_ERROR', 500],
    ['REQUEST_DEADLINE_EXCEEDED', 503],
  ] as const)(
    'retries %s (%i) on a write, with the one Idempotency-Key of the call on each attempt',
    async (code, status) => {
      const keys: Array<string | null> = [];
      const answers = [envelope(code, status, 'internal_error'), ok({ id: 'm1' })];
      server.use(
        http.post(`${API_URL}/memories/add`, ({ request }) => {
          keys.push(request.headers.get('idempotency-key'));
          return answers[Math.min(keys.length - 1, answers.length - 1)]!();
        }),
      );
      const client = createTestClient({ retry: { initialDelayMs: 1, maxDelayMs: 1 } });
      // The work may have been done: the server answers the repeat of the key with the first answer, storing nothing.
      await expect(client.memories.add({ content: 'x' })).resolves.toEqual({ id: 'm1' });
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^idem_[0-9a-f]{32}$/);
      expect(keys[1]).toBe(keys[0]);
      await client.memories.add({ content: 'y' });
      expect(keys[2]).not.toBe(keys[0]);
    },
  );

  it('does not retry an error the server marks not retryable, even on a read', async () => {
    const notRetryable = envelope('INTERNAL_ERROR', 500, 'internal_error', false);
    const counter = answerInTurn('post', '/memories/search', [notRetryable, ok({ count: 0 })]);
    await expect(createTestClient().memories.search({ query: 'q' })).rejects.toMatchObject({ retryable: false });
    expect(counter.attempts).toBe(1);
  });

  it('knows the infrastructure codes: STORAGE_FULL (507) is typed and never retried, even on a read', async () => {
    const counter = answerInTurn('post', '/memories/search', [
      envelope('STORAGE_FULL', 507, 'internal_error', false),
      ok({ count: 0 }),
    ]);
    const failed = createTestClient().memories.search({ query: 'q' });
    await expect(failed).rejects.toBeInstanceOf(InternalError);
    await expect(failed).rejects.toMatchObject({ code: 'STORAGE_FULL', status: 507, retryable: false });
    expect(counter.attempts).toBe(1);
  });

  it('retries TENANT_DATABASE_UNAVAILABLE (503) on a read and on a write, which carries its Idempotency-Key', async () => {
    const unreachable = envelope('TENANT_DATABASE_UNAVAILABLE', 503, 'internal_error', true);
    const read = answerInTurn('post', '/memories/search', [unreachable, ok({ count: 0 })]);
    const write = answerInTurn('post', '/memories/add', [unreachable, ok({ id: 'm1' })]);
    const client = createTestClient({ retry: { initialDelayMs: 1, maxDelayMs: 1 } });
    await expect(client.memories.search({ query: 'q' })).resolves.toEqual({ count: 0 });
    await expect(client.memories.add({ content: 'x' })).resolves.toEqual({ id: 'm1' });
    expect([read.attempts, write.attempts]).toEqual([2, 2]);
  });

  it('never retries a validation error', async () => {
    const counter = answerInTurn('post', '/memories/search', [envelope('QUERY_REQUIRED', 400, 'validation_error')]);
    await expect(createTestClient().memories.search({ query: ' ' })).rejects.toBeInstanceOf(ValidationError);
    expect(counter.attempts).toBe(1);
  });

  it('gives up after maxRetries, the client default or the call override', async () => {
    const counter = answerInTurn('post', '/memories/list', [unavailable]);
    await expect(createTestClient({ maxRetries: 1 }).memories.list()).rejects.toBeInstanceOf(InternalError);
    expect(counter.attempts).toBe(2);
    await expect(createTestClient({ maxRetries: 1 }).memories.list({}, { maxRetries: 3 })).rejects.toBeInstanceOf(
      InternalError,
    );
    expect(counter.attempts).toBe(2 + 4);
    const limited = answerInTurn('post', '/memories/add', [rateLimited('1')]);
    await expect(createTestClient().memories.add({ content: 'x' }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(limited.attempts).toBe(1);
  });
});

describe('timeouts and connection failures', () => {
  it('turns a slow answer into a TimeoutError, after the retries (a write is retried with its key)', async () => {
    let attempts = 0;
    server.use(
      http.post(`${API_URL}/memories/add`, async () => {
        attempts += 1;
        await delay(2_000);
        return HttpResponse.json(successEnvelope({ id: 'late' }));
      }),
    );
    const error = await createTestClient({ timeoutMs: 30, retry: { initialDelayMs: 1, maxDelayMs: 1 } })
      .memories.add({ content: 'x' })
      .catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: null, operationId: 'memories.add' });
    expect(attempts).toBe(3);
  });

  it('retries a timeout on a read', async () => {
    let attempts = 0;
    server.use(
      http.post(`${API_URL}/memories/search`, async () => {
        attempts += 1;
        if (attempts === 1) await delay(2_000);
        return HttpResponse.json(successEnvelope({ count: 1 }));
      }),
    );
    await expect(createTestClient({ timeoutMs: 30 }).memories.search({ query: 'q' })).resolves.toEqual({ count: 1 });
    expect(attempts).toBe(2);
  });

  it('turns a network error into a ConnectionError, retried on reads and on keyed writes', async () => {
    let attempts = 0;
    server.use(
      http.post(`${API_URL}/*`, () => {
        attempts += 1;
        return HttpResponse.error();
      }),
    );
    const client = createTestClient({ retry: { initialDelayMs: 1, maxDelayMs: 1 } });
    await expect(client.memories.add({ content: 'x' })).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts).toBe(3);
    await expect(client.memories.list()).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts).toBe(6);
  });

  /** A real socket server (msw cannot refuse or reset a connection), and a fetch that counts what it is asked. */
  async function listen(
    onConnection: (socket: import('node:net').Socket) => void,
  ): Promise<{ port: number; server: Server }> {
    const socketServer = createServer(onConnection);
    await new Promise<void>((resolve) => socketServer.listen(0, '127.0.0.1', resolve));
    const address = socketServer.address();
    return { port: typeof address === 'object' && address !== null ? address.port : 0, server: socketServer };
  }
  function countingFetch(): { fetch: FetchFunction; calls: () => number } {
    let calls = 0;
    return {
      fetch: (input, init) => {
        calls += 1;
        return unpatchedFetch(input, init);
      },
      calls: () => calls,
    };
  }

  it('retries a refused connection even on a write: the request never left', async () => {
    const { port, server: closed } = await listen(() => {});
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const counting = countingFetch();
    const client = createTestClient({ baseUrl: `http://127.0.0.1:${port}`, fetch: counting.fetch, maxRetries: 2 });
    const error = await client.memories.add({ content: 'x' }).catch((caught: unknown) => caught);
    expect(ConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CONNECTION_ERROR', status: null, retryable: true });
    expect(counting.calls()).toBe(3);
  });

  it('retries a write whose connection was reset after it was sent only because it carries an Idempotency-Key', async () => {
    const { port, server: resetting } = await listen((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const counting = countingFetch();
    const client = createTestClient({
      baseUrl: `http://127.0.0.1:${port}`,
      fetch: counting.fetch,
      retry: { initialDelayMs: 1, maxDelayMs: 1 },
    });
    await expect(client.memories.add({ content: 'x' })).rejects.toBeInstanceOf(ConnectionError);
    expect(counting.calls()).toBe(3);
    // An empty Idempotency-Key of the caller's is no key: the write may have been applied, so it is not repeated.
    await expect(client.memories.add({ content: 'x' }, { headers: { 'Idempotency-Key': '' } })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(counting.calls()).toBe(3 + 1);
    await expect(client.memories.list()).rejects.toBeInstanceOf(ConnectionError);
    expect(counting.calls()).toBe(4 + 3);
    await new Promise<void>((resolve) => resetting.close(() => resolve()));
  });
});
