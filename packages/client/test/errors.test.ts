import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  ConnectionError,
  InternalError,
  MemoryApiError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from '../src/index.js';
import { API_URL, createTestClient, errorEnvelope } from './helpers.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function answerAdd(body: string | Record<string, unknown>, status: number, headers: Record<string, string> = {}) {
  server.use(
    http.post(`${API_URL}/memories/add`, () =>
      typeof body === 'string'
        ? new HttpResponse(body, { status, headers: { 'content-type': 'text/html', ...headers } })
        : HttpResponse.json(body, { status, headers }),
    ),
  );
}

async function addFailure(): Promise<unknown> {
  const client = createTestClient({ maxRetries: 0 });
  return client.memories.add({ content: 'x' }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

const table = [
  { code: 'INVALID_API_KEY', status: 401, type: 'auth_error', errorClass: AuthError },
  { code: 'MEMORY_SESSION_DISABLED', status: 403, type: 'auth_error', errorClass: AuthError },
  { code: 'INVALID_REQUEST', status: 400, type: 'validation_error', errorClass: ValidationError },
  { code: 'SESSION_NOT_ACTIVE', status: 409, type: 'validation_error', errorClass: ValidationError },
  { code: 'SESSION_NOT_FOUND', status: 404, type: 'not_found_error', errorClass: NotFoundError },
  { code: 'RATE_LIMITED', status: 429, type: 'rate_limit_error', errorClass: RateLimitError },
  { code: 'INTERNAL_ERROR', status: 500, type: 'internal_error', errorClass: InternalError },
  { code: 'METHOD_NOT_ALLOWED', status: 405, type: 'unknown_error', errorClass: MemoryApiError },
] as const;

describe('error envelopes become typed errors', () => {
  it.each(table)('$code ($status, $type) -> $errorClass.kind', async ({ code, status, type, errorClass }) => {
    answerAdd(errorEnvelope(code, status, type, { field: 'content' }, '/api/sdk/v1/memories/add'), status);
    const error = await addFailure();
    expect(error).toBeInstanceOf(errorClass);
    expect(errorClass.isInstance(error)).toBe(true);
    expect(MemoryApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: errorClass.kind,
      code,
      status,
      type,
      retryable: status === 429 || status >= 500,
      details: { field: 'content' },
      requestId: '00000000-0000-4000-8000-000000000001',
      endpoint: '/api/sdk/v1/memories/add',
      operationId: 'memories.add',
    });
    expect((error as Error).message).toContain('memories.add: POST /api/sdk/v1/memories/add');
  });

  it('keeps subclasses apart', async () => {
    answerAdd(errorEnvelope('INVALID_API_KEY', 401, 'auth_error'), 401);
    const error = await addFailure();
    expect(AuthError.isInstance(error)).toBe(true);
    expect(ValidationError.isInstance(error)).toBe(false);
    expect(ConnectionError.isInstance(error)).toBe(false);
    expect(MemoryApiError.isInstance(new Error('plain'))).toBe(false);
    expect(MemoryApiError.isInstance(null)).toBe(false);
  });

  it('reads retryAfterSeconds from the details, else from Retry-After', async () => {
    answerAdd(errorEnvelope('RATE_LIMITED', 429, 'rate_limit_error', { retryAfterSeconds: 7 }), 429, {
      'retry-after': '30',
    });
    expect(await addFailure()).toMatchObject({ retryAfterSeconds: 7 });
    answerAdd(errorEnvelope('RATE_LIMITED', 429, 'rate_limit_error'), 429, { 'retry-after': '30' });
    expect(await addFailure()).toMatchObject({ retryAfterSeconds: 30 });
  });

  it('classifies an answer with no envelope by its status', async () => {
    answerAdd('<html>Bad gateway</html>', 502, { 'x-request-id': 'proxy-1' });
    const error = await addFailure();
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: 'HTTP_502', status: 502, retryable: true, requestId: 'proxy-1' });
  });

  it('keeps a code this contract does not know in details, under UNKNOWN_SERVER_CODE', async () => {
    answerAdd(errorEnvelope('BRAND_NEW_CODE', 409, 'validation_error', { field: 'content' }), 409);
    const error = await addFailure();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      code: 'UNKNOWN_SERVER_CODE',
      status: 409,
      retryable: false,
      details: { field: 'content', serverCode: 'BRAND_NEW_CODE' },
    });
  });

  it('rejects a success status without an envelope', async () => {
    answerAdd({ hello: 'world' }, 200);
    const error = await addFailure();
    expect(error).toMatchObject({ name: 'MemoryApiError', code: 'INVALID_RESPONSE', status: 200 });
  });
});

describe('isInstance across two copies of the package', () => {
  it('recognizes errors made by another copy, where instanceof cannot', async () => {
    vi.resetModules();
    const otherCopy = await import('../src/errors.js');
    expect(otherCopy.AuthError).not.toBe(AuthError);
    const foreign = new otherCopy.RateLimitError({
      code: 'RATE_LIMITED',
      message: 'slow down',
      status: 429,
      type: 'rate_limit_error',
      retryable: true,
    });
    expect(foreign instanceof RateLimitError).toBe(false);
    expect(RateLimitError.isInstance(foreign)).toBe(true);
    expect(MemoryApiError.isInstance(foreign)).toBe(true);
    expect(AuthError.isInstance(foreign)).toBe(false);
    const timeout = new otherCopy.TimeoutError('late');
    expect(TimeoutError.isInstance(timeout)).toBe(true);
    expect(ConnectionError.isInstance(timeout)).toBe(false);
  });
});
