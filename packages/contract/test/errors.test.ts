import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ERROR_TYPES } from '../src/errors.js';
import {
  API_PREFIX,
  ApiErrorObjectSchema,
  buildMeta,
  CONTRACT_VERSION,
  EnvelopeSchema,
  ERROR_CODES,
  ErrorEnvelopeSchema,
  errorEnvelope,
  errorTypeForStatus,
  isErrorCode,
  MCP_PATH,
  makeApiError,
  SERVICE_NAME,
  successEnvelope,
  successEnvelopeSchema,
  zodErrorToApiError,
} from '../src/index.js';
import { HealthDataSchema } from '../src/resources/health.js';

type ContractErrorType = (typeof ERROR_TYPES)[number];

/** The contract's Codes table, written out: code, status, and the type its status gets from the type table. */
const contractCodes: ReadonlyArray<readonly [code: string, status: number, type: ContractErrorType]> = [
  ['MISSING_API_KEY', 401, 'auth_error'],
  ['INVALID_API_KEY_FORMAT', 401, 'auth_error'],
  ['INVALID_API_KEY', 401, 'auth_error'],
  ['API_KEY_EXPIRED', 401, 'auth_error'],
  ['RATE_LIMITED', 429, 'rate_limit_error'],
  ['INVALID_REQUEST', 400, 'validation_error'],
  ['QUERY_REQUIRED', 400, 'validation_error'],
  ['TENANT_ID_INVALID', 400, 'validation_error'],
  ['USER_ID_INVALID', 400, 'validation_error'],
  ['DATABASE_NOT_CONFIGURED', 400, 'validation_error'],
  ['TENANT_DATABASE_NOT_CONFIGURED', 404, 'not_found_error'],
  ['TENANT_DATABASE_NOT_READY', 409, 'validation_error'],
  ['TENANT_DATABASE_CREDENTIALS_MISSING', 404, 'not_found_error'],
  ['CANARY_ROLLOUT_BLOCKED', 409, 'validation_error'],
  ['MEMORY_SESSION_DISABLED', 403, 'auth_error'],
  ['MEMORY_CONSOLIDATION_DISABLED', 403, 'auth_error'],
  ['MEMORY_PROCEDURAL_DISABLED', 403, 'auth_error'],
  ['MEMORY_COMPACTION_DISABLED', 403, 'auth_error'],
  ['SESSION_ID_REQUIRED', 400, 'validation_error'],
  ['SESSION_CONTENT_REQUIRED', 400, 'validation_error'],
  ['INVALID_SESSION_STATUS', 400, 'validation_error'],
  ['SESSION_NOT_FOUND', 404, 'not_found_error'],
  ['SESSION_NOT_ACTIVE', 409, 'validation_error'],
  ['SESSION_SNAPSHOT_NOT_FOUND', 404, 'not_found_error'],
  ['SKILL_FILE_PATH_REQUIRED', 400, 'validation_error'],
  ['INTERNAL_ERROR', 500, 'internal_error'],
];

describe('the error code table', () => {
  it.each(contractCodes)('%s is %i %s', (code, status, type) => {
    expect(isErrorCode(code)).toBe(true);
    if (!isErrorCode(code)) return;
    expect(ERROR_CODES[code]).toMatchObject({ status, type });
  });

  it('has LEGACY_MCP_KEY_ERROR, whose status is passed through', () => {
    expect(isErrorCode('LEGACY_MCP_KEY_ERROR')).toBe(true);
    expect(makeApiError('LEGACY_MCP_KEY_ERROR', 'wrapper said no', undefined, 403)).toMatchObject({
      status: 403,
      type: 'auth_error',
      retryable: false,
    });
    expect(makeApiError('LEGACY_MCP_KEY_ERROR', 'wrapper failed', undefined, 503)).toMatchObject({
      status: 503,
      type: 'internal_error',
      retryable: true,
    });
  });

  it('retryable is true for 429, 5xx and the two 409s that pass (a tenant not ready, an idempotency key in use), except the 5xx only an operator can clear', () => {
    const operatorOnly = new Set(['STORAGE_FULL', 'TENANT_DATABASE_CREDENTIALS_REJECTED']);
    const passing = new Set(['TENANT_DATABASE_NOT_READY', 'IDEMPOTENCY_KEY_IN_USE']);
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      const expected = (entry.status === 429 || entry.status >= 500 || passing.has(code)) && !operatorOnly.has(code);
      expect(entry.retryable, code).toBe(expected);
    }
    expect(ERROR_CODES.TENANT_DATABASE_NOT_READY.retryable).toBe(true);
    expect(ERROR_CODES.RATE_LIMITED.retryable).toBe(true);
    expect(ERROR_CODES.INTERNAL_ERROR.retryable).toBe(true);
    expect(ERROR_CODES.SESSION_NOT_ACTIVE.retryable).toBe(false);
    expect(ERROR_CODES.IDEMPOTENCY_KEY_REUSED.retryable).toBe(false);
  });

  it.each([
    ['STORAGE_FULL', 507, false],
    ['TENANT_DATABASE_CREDENTIALS_REJECTED', 502, false],
    ['TENANT_DATABASE_UNAVAILABLE', 503, true],
    ['SERVER_RESOURCES_EXHAUSTED', 503, true],
  ] as const)('has the infrastructure failure %s: %i, internal_error, retryable %s', (code, status, retryable) => {
    expect(ERROR_CODES[code]).toEqual({ status, type: 'internal_error', retryable });
    expect(makeApiError(code, 'm')).toMatchObject({ code, status, type: 'internal_error', retryable });
  });

  it('every entry (including the additions in docs/architecture.md) has the type its status gives', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(entry.type, code).toBe(errorTypeForStatus(entry.status));
      expect(ERROR_TYPES, code).toContain(entry.type);
    }
  });

  it('isErrorCode rejects unknown codes and inherited property names', () => {
    expect(isErrorCode('NOT_A_CODE')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('invalid_request')).toBe(false);
  });
});

describe('errorTypeForStatus follows the contract type table', () => {
  it.each([
    [401, 'auth_error'],
    [403, 'auth_error'],
    [400, 'validation_error'],
    [409, 'validation_error'],
    [404, 'not_found_error'],
    [429, 'rate_limit_error'],
    [500, 'internal_error'],
    [502, 'internal_error'],
    [503, 'internal_error'],
    [599, 'internal_error'],
    [418, 'unknown_error'],
    [302, 'unknown_error'],
  ] as const)('%i -> %s', (status, type) => {
    expect(errorTypeForStatus(status)).toBe(type);
  });
});

describe('makeApiError', () => {
  it('builds the contract error object from the table', () => {
    const error = makeApiError('RATE_LIMITED', 'Too many requests', { retryAfterSeconds: 12 });
    expect(error).toEqual({
      type: 'rate_limit_error',
      code: 'RATE_LIMITED',
      message: 'Too many requests',
      status: 429,
      retryable: true,
      details: { retryAfterSeconds: 12 },
    });
    expect(ApiErrorObjectSchema.parse(error)).toEqual(error);
  });

  it('leaves details out when none are given', () => {
    expect(makeApiError('SESSION_NOT_FOUND', 'Session not found')).not.toHaveProperty('details');
  });
});

describe('zodErrorToApiError', () => {
  const schema = z.object({ content: z.string().min(1), tags: z.array(z.string().max(3)).optional() });

  it('names the first failing field as a dotted path and lists the issues', () => {
    const input = { content: 'ok', tags: ['a', 'toolong'] };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    const error = zodErrorToApiError(result.error, input);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', status: 400, details: { field: 'tags.1' } });
    expect(error.message).toContain('tags.1');
    expect(error.details?.issues).toEqual([expect.objectContaining({ path: 'tags.1', code: 'too_big' })]);
  });

  it('names the body when the failure is on the whole object', () => {
    const result = schema.safeParse('not an object');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodErrorToApiError(result.error, 'not an object').details).toMatchObject({ field: 'body' });
  });

  it('applies a missing rule only when the value is absent or blank', () => {
    const rules = [{ field: 'content', code: 'SESSION_CONTENT_REQUIRED', when: 'missing' }] as const;
    const missing = schema.safeParse({});
    const wrongType = schema.safeParse({ content: 7 });
    expect(missing.success || wrongType.success).toBe(false);
    if (missing.success || wrongType.success) return;
    expect(zodErrorToApiError(missing.error, {}, rules).code).toBe('SESSION_CONTENT_REQUIRED');
    expect(zodErrorToApiError(wrongType.error, { content: 7 }, rules).code).toBe('INVALID_REQUEST');
  });

  it('gives scope fields their codes without any rule', () => {
    const scoped = z.object({ scope: z.object({ tenantId: z.string().max(2) }) });
    const input = { scope: { tenantId: 'abc' } };
    const result = scoped.safeParse(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodErrorToApiError(result.error, input)).toMatchObject({
      code: 'TENANT_ID_INVALID',
      details: { field: 'scope.tenantId' },
    });
  });
});

describe('the envelope', () => {
  const requestId = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
  const now = new Date('2026-03-01T12:00:00.000Z');
  const endpoint = `${API_PREFIX}/health`;

  it('buildMeta carries the contract version, the route, the request id and an ISO UTC timestamp', () => {
    expect(buildMeta(endpoint, requestId, now)).toEqual({
      version: '2026-02-11',
      endpoint: '/api/sdk/v1/health',
      requestId,
      timestamp: '2026-03-01T12:00:00.000Z',
    });
  });

  it('buildMeta defaults the timestamp to now', () => {
    const before = Date.now();
    const meta = buildMeta(endpoint, requestId);
    expect(meta.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(meta.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(meta.timestamp)).toBeLessThanOrEqual(Date.now());
  });

  it('successEnvelope is ok true, data, error null, meta', () => {
    const meta = buildMeta(endpoint, requestId, now);
    const data = { status: 'ok', service: SERVICE_NAME, schemaVersion: CONTRACT_VERSION };
    const envelope = successEnvelope(data, meta);
    expect(envelope).toEqual({ ok: true, data, error: null, meta });
    expect(successEnvelopeSchema(HealthDataSchema).parse(envelope)).toEqual(envelope);
    expect(EnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(ErrorEnvelopeSchema.safeParse(envelope).success).toBe(false);
  });

  it('errorEnvelope is ok false, data null, the error object, meta', () => {
    const meta = buildMeta(`${API_PREFIX}/sessions/end`, requestId, now);
    const error = makeApiError('SESSION_NOT_ACTIVE', 'Session is not active');
    const envelope = errorEnvelope(error, meta);
    expect(envelope).toEqual({ ok: false, data: null, error, meta });
    expect(ErrorEnvelopeSchema.parse(envelope)).toEqual(envelope);
    expect(EnvelopeSchema.safeParse(envelope).success).toBe(true);
  });

  it('the envelope schemas reject mixed shapes', () => {
    const meta = buildMeta(endpoint, requestId, now);
    const error = makeApiError('INTERNAL_ERROR', 'Something failed');
    expect(EnvelopeSchema.safeParse({ ok: true, data: {}, error, meta }).success).toBe(false);
    expect(EnvelopeSchema.safeParse({ ok: false, data: {}, error, meta }).success).toBe(false);
    expect(EnvelopeSchema.safeParse({ ok: true, data: {}, error: null }).success).toBe(false);
  });

  it('the version constants match the contract', () => {
    expect(CONTRACT_VERSION).toBe('2026-02-11');
    expect(API_PREFIX).toBe('/api/sdk/v1');
    expect(MCP_PATH).toBe('/api/mcp');
  });
});
