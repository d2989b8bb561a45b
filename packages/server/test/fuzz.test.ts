import { EnvelopeSchema, type OperationDefinition, operationList } from '@memory-service/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../src/auth/keys.js';
import { createTestServer, type TestServer } from './harness.js';

/**
 * Property-based fuzzing of every route's input: random JSON of every shape, values past the limits,
 * unicode with lone surrogates, prototype-pollution keys, wrong content types. The server must answer
 * every request with a contract envelope, never a 5xx, and stay healthy.
 */
let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});
// Fuzzing DELETE /management/keys may revoke the test key: bring it back so every route is fuzzed authenticated.
beforeEach(async () => {
  await server.services.control.database.run(
    'UPDATE api_keys SET revoked_at = NULL, expires_at = NULL WHERE key_hash = ?',
    [hashApiKey(server.services.config.bootstrapApiKey ?? '')],
  );
  server.services.control.clearCaches();
});

const RUNS_PER_ROUTE = 25;

const hostileString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\uD800', 'a\uDFFFb', '\u0000', '"', '*', 'NEAR(', '../../etc', '__proto__', 'x'.repeat(8001)),
  fc.integer({ min: 1, max: 130_000 }).map((length) => 'y'.repeat(length)),
);
const pollutionKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(pollutionKeys, fc.string({ maxLength: 12 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

function fieldNames(operation: OperationDefinition): string[] {
  const shape = (operation.input as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** Bodies that use the route's own field names with hostile values, plus fully random shapes. */
function bodies(operation: OperationDefinition): fc.Arbitrary<unknown> {
  const names = fieldNames(operation);
  const named =
    names.length === 0
      ? fc.constant({})
      : fc.dictionary(fc.oneof(fc.constantFrom(...names), pollutionKeys), hostileValue, { maxKeys: names.length + 2 });
  return fc.oneof(named, hostileValue, fc.jsonValue());
}

/** A lone surrogate cannot be put in a URL (encodeURIComponent throws); a client sends U+FFFD in its place. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function url(operation: OperationDefinition, query: Record<string, string>): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent((query[name] ?? 'x').replace(LONE_SURROGATE, '\ufffd')),
  );
  const search = new URLSearchParams(query).toString();
  return `/api/sdk/v1${path}${search ? `?${search}` : ''}`;
}

async function send(operation: OperationDefinition, payload: unknown, contentType: string) {
  let target: string;
  let body: string | undefined;
  if (operation.inputLocation === 'query') {
    const query = Object.fromEntries(
      Object.entries(
        typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload : { value: payload },
      ).map(([key, value]) => [key, typeof value === 'string' ? value : (JSON.stringify(value) ?? '')]),
    );
    target = url(operation, query);
  } else {
    target = url(operation, {});
    body = JSON.stringify(payload) ?? 'undefined';
  }
  const response = await server.app.request(target, {
    method: operation.method,
    headers: { authorization: `Bearer ${server.services.config.bootstrapApiKey}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, text: await response.text() };
}

function assertEnvelope(status: number, text: string): void {
  expect(status).toBeLessThan(500);
  const envelope = EnvelopeSchema.parse(JSON.parse(text));
  if (!envelope.ok && envelope.error.code === 'INVALID_REQUEST') {
    expect(typeof envelope.error.details?.field).toBe('string');
  }
}

describe('fuzzing every route', () => {
  for (const operation of operationList) {
    it(`${operation.method} ${operation.path} always answers with an envelope and never 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(
          bodies(operation),
          fc.constantFrom(
            'application/json',
            'application/json; charset=utf-8',
            'text/plain',
            'application/x-www-form-urlencoded',
          ),
          async (payload, contentType) => {
            const { status, text } = await send(operation, payload, contentType);
            assertEnvelope(status, text);
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  }

  it('raw non-JSON bodies get INVALID_REQUEST on body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (raw) => {
        const response = await server.app.request('/api/sdk/v1/memories/add', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${server.services.config.bootstrapApiKey}`,
            'content-type': 'application/json',
          },
          body: raw,
        });
        assertEnvelope(response.status, await response.text());
      }),
      { numRuns: 100 },
    );
  });

  it('leaves no prototype polluted and the server healthy', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
    const health = await server.call('GET', '/health', undefined, { key: null });
    expect(health.status).toBe(200);
    const add = await server.call('POST', '/memories/add', { content: 'still healthy after fuzzing' });
    expect(add.status).toBe(201);
  });
});
