import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InternalError,
  type MemoryApiError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from './errors.js';
import { createRetryPolicy, isReadOperation, parseRetryAfter, retryDelayMs, shouldRetry } from './retry.js';

const serverError = (code: MemoryApiError['code'], status: number, retryable: boolean) =>
  new InternalError({ code, message: code, status, type: 'internal_error', retryable });

describe('isReadOperation', () => {
  it('follows the contract table', () => {
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
});

describe('shouldRetry', () => {
  const refused = new ConnectionError('refused', {
    cause: new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    }),
  });
  const reset = new ConnectionError('reset', {
    cause: new TypeError('fetch failed', {
      cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    }),
  });
  const rateLimited = new RateLimitError({
    code: 'RATE_LIMITED',
    message: 'slow down',
    status: 429,
    type: 'rate_limit_error',
    retryable: true,
  });

  it.each([
    ['a 429', rateLimited, true, true],
    ['SERVER_BUSY', serverError('SERVER_BUSY', 503, true), true, true],
    ['a refused connection', refused, true, true],
    ['INTERNAL_ERROR', serverError('INTERNAL_ERROR', 500, true), true, false],
    ['REQUEST_DEADLINE_EXCEEDED', serverError('REQUEST_DEADLINE_EXCEEDED', 503, true), true, false],
    ['a proxy 502', serverError('HTTP_502', 502, true), true, false],
    ['a reset connection', reset, true, false],
    ['a timeout', new TimeoutError('late'), true, false],
    ['a 500 marked not retryable', serverError('INTERNAL_ERROR', 500, false), false, false],
    [
      'a validation error',
      new ValidationError({
        code: 'INVALID_REQUEST',
        message: 'x',
        status: 400,
        type: 'validation_error',
        retryable: false,
      }),
      false,
      false,
    ],
    ['a plain Error', new Error('bug'), false, false],
  ])('%s: read %s, write %s', (_name, error, onRead, onWrite) => {
    expect(shouldRetry(error, 'memories.search')).toBe(onRead);
    expect(shouldRetry(error, 'memories.add')).toBe(onWrite);
    // A write sent with an Idempotency-Key is answered once by the server: it is retried as a read is.
    expect(shouldRetry(error, 'memories.add', { idempotent: true })).toBe(onRead);
  });

  it('retries a write whose key the first attempt still holds elsewhere (IDEMPOTENCY_KEY_IN_USE)', () => {
    const inUse = serverError('IDEMPOTENCY_KEY_IN_USE', 409, true);
    expect(shouldRetry(inUse, 'memories.add', { idempotent: true })).toBe(true);
    expect(shouldRetry(serverError('IDEMPOTENCY_KEY_REUSED', 409, false), 'memories.add', { idempotent: true })).toBe(
      false,
    );
  });
});

describe('retryDelayMs (the MCP loop; the HTTP transport gives ky the same numbers)', () => {
  it('doubles the backoff from 500 ms, caps it at 8 s and jitters it down by at most 25%', () => {
    const noJitter = createRetryPolicy({ random: () => 0 });
    expect([1, 2, 3, 4, 5, 6, 10].map((retry) => retryDelayMs(new Error('x'), retry, noJitter))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    const fullJitter = createRetryPolicy({ random: () => 0.999_999 });
    expect(retryDelayMs(new Error('x'), 10, fullJitter)).toBeCloseTo(6000, 0);
  });

  it('waits what the server asked, capped at maxRetryAfterMs', () => {
    const policy = createRetryPolicy({ maxRetryAfterMs: 5_000 });
    const asked = (seconds: number) =>
      new RateLimitError({
        code: 'RATE_LIMITED',
        message: 'x',
        status: 429,
        type: 'rate_limit_error',
        retryable: true,
        retryAfterSeconds: seconds,
      });
    expect(retryDelayMs(asked(2), 1, policy)).toBe(2000);
    expect(retryDelayMs(asked(600), 1, policy)).toBe(5000);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:12 GMT', now)).toBe(12);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
