import { LIMITS } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, TEST_KEY, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A metadata object nested `levels` deep as raw JSON text (the object itself is level 1). */
function nestedJson(levels: number): string {
  return `${'{"child":'.repeat(levels - 1)}{"leaf":true}${'}'.repeat(levels - 1)}`;
}

/** Metadata whose JSON is exactly `bytes` UTF-8 bytes, written in 2-byte characters. */
function metadataOfBytes(bytes: number): Record<string, string> {
  const payload = bytes - JSON.stringify({ note: '' }).length;
  return { note: 'é'.repeat(Math.floor(payload / 2)) + 'x'.repeat(payload % 2) };
}

/** Every route whose body takes `metadata`, with the rest of a valid body as raw JSON. */
const routes = [
  { route: '/memories/add', body: (metadata: string) => `{"content":"deep metadata","metadata":${metadata}}` },
  { route: '/sessions/start', body: (metadata: string) => `{"title":"deep","metadata":${metadata}}` },
  {
    route: '/management/tenant-overrides',
    body: (metadata: string) => `{"tenantId":"deep-tenant","mode":"provision","metadata":${metadata}}`,
  },
];

describe('metadata nesting cap (16 levels), checked before anything recursive sees the value', () => {
  describe.each(routes)('POST $route', ({ route, body }) => {
    it.each([5_000, 100_000])(
      'refuses %i levels with 400 INVALID_REQUEST naming metadata, not a 500',
      async (levels) => {
        const text = body(nestedJson(levels));
        expect(Buffer.byteLength(text)).toBeLessThan(LIMITS.requestBodyBytes);
        const response = await server.call('POST', route, text);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({
          code: 'INVALID_REQUEST',
          type: 'validation_error',
          details: { field: 'metadata' },
        });
      },
    );

    it('accepts 16 levels', async () => {
      const response = await server.call('POST', route, body(nestedJson(16)));
      expect(response.status).toBeLessThan(300);
    });
  });

  it('memories/edit refuses deep metadata too, and the memory keeps what it had', async () => {
    const { id } = await server.post<{ id: string }>('/memories/add', { content: 'edit target', metadata: { a: 1 } });
    const response = await server.call('POST', '/memories/edit', `{"id":"${id}","metadata":${nestedJson(5_000)}}`);
    expect(response.status).toBe(400);
    expect(response.body.error?.details?.field).toBe('metadata');
    const listed = await server.post<{ memories: Array<{ id: string; metadata: unknown }> }>('/memories/list', {});
    expect(listed.memories.find((memory) => memory.id === id)?.metadata).toEqual({ a: 1 });
  });

  it('MCP add_memory refuses 100,000 levels with the same INVALID_REQUEST envelope', async () => {
    const headers = {
      authorization: `Bearer ${TEST_KEY}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_memory","arguments":{"content":"deep","metadata":${nestedJson(100_000)}}}}`;
    const response = await server.app.request('/api/mcp', { method: 'POST', headers, body: call });
    const result = ((await response.json()) as { result: { isError: boolean; structuredContent: any } }).result;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
      details: { field: 'metadata' },
    });
  });

  it('stores and returns 16 levels intact', async () => {
    const { memory } = await server.post<{ memory: { metadata: unknown } }>(
      '/memories/add',
      `{"content":"sixteen levels","metadata":${nestedJson(16)}}`,
    );
    expect(memory.metadata).toEqual(JSON.parse(nestedJson(16)));
  });
});

describe('metadata size cap (16,384 bytes of JSON)', () => {
  it('stores exactly 16,384 bytes and refuses 16,385, counting UTF-8 bytes', async () => {
    const largest = metadataOfBytes(LIMITS.metadata.maxBytes);
    const { memory } = await server.post<{ memory: { metadata: unknown } }>('/memories/add', {
      content: 'largest metadata',
      metadata: largest,
    });
    expect(memory.metadata).toEqual(largest);
    for (const route of ['/memories/add', '/sessions/start']) {
      const response = await server.call('POST', route, {
        ...(route === '/memories/add' ? { content: 'one byte too many' } : {}),
        metadata: metadataOfBytes(LIMITS.metadata.maxBytes + 1),
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'metadata' } });
    }
  });
});
