import { createServer } from 'node:net';
import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  createRetryPolicy,
  InternalError,
  isReadOperation,
  parseRetryAfter,
  RateLimitError,
  retryDelayMs,
  TimeoutError,
  ValidationError,
} from '../src/index.js';
import { API_URL, createTestClient, errorEnvelope, recordSleeps, successEnvelope } from './helpers.js';

// Captured before msw patches the global fetch, to reach a real closed port.
const unpatchedFetch = globalThis.fetch;

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
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

const rateLimited =
  (details?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  () =>
    HttpResponse.json(errorEnvelope('RATE_LIMITED', 429, 'rate_limit_error', details), { status: 429, headers });
const unavailable = () => HttpResponse.json(errorEnvelope('INTERNAL_ERROR', 503, 'internal_error'), { status: 503 });
const ok = (data: unknown) => () => HttpResponse.json(successEnvelope(data));

describe('retries', () => {
  it('retries a 429 on a write, waiting retryAfterSeconds', async () => {
    const recorder = recordSleeps();
    const counter = answerInTurn('post', '/memories/add', [rateLimited({ retryAfterSeconds: 2 }), ok({ id: 'm1' })]);
    const result = await createTestClient({}, recorder).memories.add({ content: 'x' });
    expect(result).toEqual({ id: 'm1' });
    expect(counter.attempts).toBe(2);
    expect(recorder.delays).toEqual([2000]);
  });

  it('honours the Retry-After header when the details have no retryAfterSeconds', async () => {
    const recorder = recordSleeps();
    answerInTurn('post', '/memories/add', [rateLimited(undefined, { 'retry-after': '3' }), ok({ id: 'm1' })]);
    await createTestClient({}, recorder).memories.add({ content: 'x' });
    expect(recorder.delays).toEqual([3000]);
  });

  it('caps a server-requested wait at maxRetryAfterMs', async () => {
    const recorder = recordSleeps();
    answerInTurn('post', '/memories/add', [rateLimited({ retryAfterSeconds: 600 }), ok({ id: 'm1' })]);
    await createTestClient({ retry: { maxRetryAfterMs: 50 } }, recorder).memories.add({ content: 'x' });
    expect(recorder.delays).toEqual([50]);
  });

  it('retries a 503 on a read with exponential backoff', async () => {
    const recorder = recordSleeps();
    const counter = answerInTurn('post', '/memories/search', [unavailable, unavailable, ok({ count: 0 })]);
    await expect(createTestClient({}, recorder).memories.search({ query: 'q' })).resolves.toEqual({ count: 0 });
    expect(counter.attempts).toBe(3);
    expect(recorder.delays).toEqual([1, 2]);
  });

  it('retries a 503 on a GET route and a 408 on a read-only POST', async () => {
    const snapshot = answerInTurn('get', '/sessions/s1/snapshot', [unavailable, ok({ sessionId: 's1' })]);
    const timeout = () => HttpResponse.json(errorEnvelope('REQUEST_TIMEOUT', 408, 'unknown_error'), { status: 408 });
    const context = answerInTurn('post', '/context/get', [timeout, ok({ memories: [] })]);
    const client = createTestClient();
    await client.sessions.snapshot('s1');
    await client.context.get({ query: 'q' });
    expect([snapshot.attempts, context.attempts]).toEqual([2, 2]);
  });

  it('does not retry a 503 on a write', async () => {
    const counter = answerInTurn('post', '/memories/add', [unavailable, ok({ id: 'm1' })]);
    await expect(createTestClient().memories.add({ content: 'x' })).rejects.toBeInstanceOf(InternalError);
    expect(counter.attempts).toBe(1);
  });

  it('gives up after maxRetries', async () => {
    const counter = answerInTurn('post', '/memories/list', [unavailable]);
    await expect(createTestClient({ maxRetries: 1 }).memories.list()).rejects.toBeInstanceOf(InternalError);
    expect(counter.attempts).toBe(2);
    const limited = answerInTurn('post', '/memories/add', [rateLimited({ retryAfterSeconds: 1 })]);
    await expect(createTestClient({ maxRetries: 0 }).memories.add({ content: 'x' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(limited.attempts).toBe(1);
  });

  it('never retries a validation error', async () => {
    const invalid = () => HttpResponse.json(errorEnvelope('QUERY_REQUIRED', 400, 'validation_error'), { status: 400 });
    const counter = answerInTurn('post', '/memories/search', [invalid]);
    await expect(createTestClient().memories.search({ query: ' ' })).rejects.toBeInstanceOf(ValidationError);
    expect(counter.attempts).toBe(1);
  });
});

describe('timeouts and connection failures', () => {
  it('turns a slow answer into a TimeoutError (no retry on a write)', async () => {
    let attempts = 0;
    server.use(
      http.post(`${API_URL}/memories/add`, async () => {
        attempts += 1;
        await delay(2_000);
        return HttpResponse.json(successEnvelope({ id: 'late' }));
      }),
    );
    const error = await createTestClient({ timeoutMs: 30 })
      .memories.add({ content: 'x' })
      .catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: null, operationId: 'memories.add' });
    expect(attempts).toBe(1);
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

  it('turns a network error into a ConnectionError, retried on reads only', async () => {
    let attempts = 0;
    server.use(
      http.post(`${API_URL}/*`, () => {
        attempts += 1;
        return HttpResponse.error();
      }),
    );
    const client = createTestClient();
    await expect(client.memories.add({ content: 'x' })).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts).toBe(1);
    await expect(client.memories.list()).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts).toBe(4);
  });

  it('turns a refused connection into a ConnectionError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createTestClient({ baseUrl: `http://127.0.0.1:${port}`, fetch: unpatchedFetch, maxRetries: 0 });
    const error = await client.health().catch((caught: unknown) => caught);
    expect(ConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CONNECTION_ERROR', status: null, retryable: true });
  });
});

describe('retry policy', () => {
  it('classifies read operations', () => {
    const reads = [
      'context.get',
      'memories.search',
      'memories.list',
      'skills.list',
      'graph.trace',
      'graph.status.post',
    ];
    for (const id of reads) expect(isReadOperation(id as 'context.get')).toBe(true);
    expect(isReadOperation('sessions.snapshot')).toBe(true);
    expect(isReadOperation('management.keys.get')).toBe(true);
    for (const id of ['memories.add', 'sessions.end', 'management.keys.delete', 'graph.rollout.post'] as const) {
      expect(isReadOperation(id)).toBe(false);
    }
  });

  it('doubles the backoff from 500 ms, caps it at 8 s and jitters it down by at most 25%', () => {
    const noJitter = createRetryPolicy({ random: () => 0 });
    expect([0, 1, 2, 3, 4, 5, 9].map((index) => retryDelayMs(new Error('x'), index, noJitter))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    const fullJitter = createRetryPolicy({ random: () => 0.999_999 });
    expect(retryDelayMs(new Error('x'), 9, fullJitter)).toBeCloseTo(6000, 0);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:12 GMT', now)).toBe(12);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
