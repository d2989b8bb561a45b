import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_PREFIX, LIMITS, operationList, operations } from '@memory-service/contract';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { closeServices, createServices } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { defaultHandlers } from '../src/handlers/index.js';
import { createLogger } from '../src/logger.js';
import { type RunningServer, startServer } from '../src/server.js';
import type { Services } from '../src/services.js';
import { TEST_EMBEDDING_MODEL, TEST_KEY } from './harness.js';

type Loose = Record<string, any>;

const directory = mkdtempSync(path.join(tmpdir(), 'memory-http-shell-'));
const lines: string[] = [];
let services: Services;
let app: Hono;
let server: RunningServer;
const serverLines: string[] = [];

const auth = { authorization: `Bearer ${TEST_KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

function logged(requestId: string): Loose[] {
  return lines.map((line) => JSON.parse(line) as Loose).filter((entry) => entry.requestId === requestId);
}

/** The table's methods for a contract path, in table order: what `Allow` must say. */
function contractMethods(contractPath: string): string {
  return operationList
    .filter((operation) => operation.path === contractPath)
    .map((operation) => operation.method)
    .join(', ');
}

beforeAll(async () => {
  const config = loadConfig(
    {},
    {
      dataDir: path.join(directory, 'app'),
      bootstrapApiKey: TEST_KEY,
      logLevel: 'info',
      embeddingModel: TEST_EMBEDDING_MODEL,
      rateLimitPerMinute: 0,
      ipRateLimitPerMinute: 0,
    },
  );
  services = await createServices(config, { logger: createLogger('info', (line) => lines.push(line)) });
  app = createApp(services, {
    ...defaultHandlers,
    'memories.list': async () => {
      throw new Error('handler failed');
    },
  });
  // A route that throws outside the pipeline, so the answer comes from the app's onError.
  app.get(`${API_PREFIX}/test-only/throws`, () => {
    throw new Error('route failed');
  });
  server = await startServer(
    {
      host: '127.0.0.1',
      port: 0,
      dataDir: path.join(directory, 'server'),
      bootstrapApiKey: TEST_KEY,
      logLevel: 'info',
      embeddingModel: TEST_EMBEDDING_MODEL,
      rateLimitPerMinute: 0,
      ipRateLimitPerMinute: 0,
    },
    { environment: {}, logger: createLogger('info', (line) => serverLines.push(line)) },
  );
});

afterAll(async () => {
  await closeServices(services);
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('one request id per request', () => {
  it.each([
    [
      'a success',
      '/memories/add',
      { content: 'the deploy runs on Fridays' },
      operations['memories.add'].successStatus,
      undefined,
    ],
    ['a 400', '/memories/add', { content: '' }, 400, 'INVALID_REQUEST'],
    ['a 500 from the pipeline', '/memories/list', {}, 500, 'INTERNAL_ERROR'],
  ])('is the same in the header, the envelope and the log line: %s', async (_label, route, body, status, code) => {
    const response = await app.request(`${API_PREFIX}${route}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(status);
    const envelope = (await response.json()) as Loose;
    if (code !== undefined) expect(envelope.error.code).toBe(code);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(envelope.meta.requestId).toBe(requestId);
    const entries = logged(requestId as string);
    expect(entries.filter((entry) => entry.msg === 'request')).toEqual([
      expect.objectContaining({ method: 'POST', path: `${API_PREFIX}${route}`, status, operation: expect.any(String) }),
    ]);
    if (status === 500) expect(entries.some((entry) => entry.msg === 'unhandled error')).toBe(true);
  });

  it('is the same for an error answered by onError', async () => {
    const response = await app.request(`${API_PREFIX}/test-only/throws`);
    expect(response.status).toBe(500);
    const envelope = (await response.json()) as Loose;
    expect(envelope.error).toMatchObject({ code: 'INTERNAL_ERROR', type: 'internal_error' });
    const requestId = response.headers.get('x-request-id') as string;
    expect(envelope.meta.requestId).toBe(requestId);
    const messages = logged(requestId).map((entry) => [entry.msg, entry.status]);
    expect(messages).toEqual([
      ['unhandled error', undefined],
      ['request', 500],
    ]);
  });

  it('honours a caller UUID (lower-cased) and replaces anything else', async () => {
    const given = '0F8FAD5B-D9CB-469F-A165-70867728950E';
    const kept = await app.request(`${API_PREFIX}/health`, { headers: { 'x-request-id': given } });
    expect(kept.headers.get('x-request-id')).toBe(given.toLowerCase());
    expect(((await kept.json()) as Loose).meta.requestId).toBe(given.toLowerCase());
    const replaced = await app.request(`${API_PREFIX}/health`, { headers: { 'x-request-id': 'not-a-uuid' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(replaced.headers.get('x-request-id')).not.toBe('not-a-uuid');
  });

  it('runs an MCP tool call under the HTTP request id', async () => {
    const response = await app.request('/api/mcp', {
      method: 'POST',
      headers: { ...json, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_memories', arguments: { query: 'deploy' } },
      }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id') as string;
    const body = (await response.json()) as Loose;
    expect(body.result.structuredContent.meta.requestId).toBe(requestId);
    const entries = logged(requestId);
    expect(entries.map((entry) => entry.msg).sort()).toEqual(['mcp tool call', 'request']);
    expect(entries.find((entry) => entry.msg === 'mcp tool call')).toMatchObject({
      tool: 'search_memories',
      operation: 'memories.search',
      status: 200,
    });
    expect(entries.find((entry) => entry.msg === 'request')).toMatchObject({ operation: 'mcp', status: 200 });
  });
});

describe('wrong method and unknown path', () => {
  it.each([
    ['GET', '/memories/add'],
    ['DELETE', '/context/get'],
    ['PUT', '/graph/rollout'],
    ['POST', '/sessions/{sessionId}/snapshot'],
  ])('answers %s %s with 405, the table methods in Allow, in the envelope', async (method, contractPath) => {
    const concrete = contractPath.replace('{sessionId}', 'ses_1');
    const response = await app.request(`${API_PREFIX}${concrete}`, { method, headers: auth });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(contractMethods(contractPath));
    const envelope = (await response.json()) as Loose;
    expect(envelope).toMatchObject({
      ok: false,
      data: null,
      error: { code: 'METHOD_NOT_ALLOWED', status: 405 },
      meta: { endpoint: `${API_PREFIX}${concrete}`, requestId: response.headers.get('x-request-id') },
    });
  });

  it('answers a wrong method on the legacy key alias with its methods', async () => {
    const response = await app.request('/api/mcp/key', { method: 'PATCH', headers: auth });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(contractMethods('/management/keys'));
  });

  it('answers an unknown path 404 NOT_FOUND, without asking for a key', async () => {
    for (const route of [`${API_PREFIX}/memories/nope/deeper/still`, '/nowhere']) {
      const response = await app.request(route, { method: 'POST' });
      expect(response.status).toBe(404);
      expect(response.headers.get('allow')).toBeNull();
      expect((await response.json()) as Loose).toMatchObject({
        error: { code: 'NOT_FOUND', type: 'not_found_error', status: 404 },
        meta: { endpoint: route },
      });
    }
  });

  it('answers a method MCP does not serve with its JSON-RPC 405 and Allow: POST, before the key', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const response = await app.request('/api/mcp', { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await response.json()) as Loose).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });
});

describe('request body limit', () => {
  const oversized = 'x'.repeat(LIMITS.requestBodyBytes + 1);

  it('refuses a body over the cap by its Content-Length with 400 INVALID_REQUEST naming body', async () => {
    const response = await app.request(`${API_PREFIX}/memories/add`, {
      method: 'POST',
      headers: json,
      body: oversized,
    });
    expect(response.status).toBe(400);
    const envelope = (await response.json()) as Loose;
    expect(envelope.error).toMatchObject({
      code: 'INVALID_REQUEST',
      type: 'validation_error',
      details: { field: 'body', maxBytes: LIMITS.requestBodyBytes },
    });
    expect(envelope.meta.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('refuses a chunked body once it passes the cap, and reads one under it', async () => {
    const chunked = (text: string) =>
      fetch(`${server.url}${API_PREFIX}/memories/add`, {
        method: 'POST',
        headers: json,
        body: new ReadableStream({
          start(controller) {
            for (let index = 0; index < text.length; index += 65_536) {
              controller.enqueue(new TextEncoder().encode(text.slice(index, index + 65_536)));
            }
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const refused = await chunked(oversized);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Loose).error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { field: 'body' },
    });
    const accepted = await chunked(JSON.stringify({ content: 'sent in chunks' }));
    expect(accepted.status).toBe(operations['memories.add'].successStatus);
  });
});

describe('MCP Accept header', () => {
  it('serves a POST without Accept as if it accepted both', async () => {
    const response = await app.request('/api/mcp', { method: 'POST', headers: json, body: toolsList });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Loose).result.tools.length).toBeGreaterThan(0);
  });

  it("serves fetch's default Accept (*/*) over the network", async () => {
    const response = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers: json, body: toolsList });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Loose).result.tools.length).toBeGreaterThan(0);
    const requestId = response.headers.get('x-request-id');
    const entry = serverLines.map((line) => JSON.parse(line) as Loose).find((line) => line.requestId === requestId);
    expect(entry).toMatchObject({ msg: 'request', path: '/api/mcp', status: 200 });
  });

  it('still refuses an Accept that excludes JSON and SSE with 406', async () => {
    for (const accept of ['text/html', 'image/*']) {
      const response = await app.request('/api/mcp', { method: 'POST', headers: { ...json, accept }, body: toolsList });
      expect(response.status).toBe(406);
    }
  });

  it('serves runtimes other than Node: an env without a socket (Bun passes its server object) is no error', async () => {
    const response = await app.request(`${API_PREFIX}/health`, {}, { server: {} });
    expect(response.status).toBe(200);
  });

  it('logs a made-up long path cut to 200 characters', async () => {
    const response = await app.request(`${API_PREFIX}/${'x'.repeat(5000)}`);
    expect(response.status).toBe(404);
    const [entry] = logged(response.headers.get('x-request-id')!);
    expect(entry!.path.length).toBeLessThanOrEqual(201);
    expect(entry!.path.startsWith(`${API_PREFIX}/xxx`)).toBe(true);
  });
});
