import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestServer } from './harness.js';

/** A span as OTLP/JSON carries it (the fields these tests read). */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** A fake OTLP/HTTP receiver on 127.0.0.1: keeps every export's spans, and the paths it was sent to. */
let receiver: Server;
let endpoint: string;
const exports: Array<{ path: string; spans: ExportedSpan[] }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: ExportedSpan[] }> }>;
      };
      const spans = body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
      exports.push({ path: request.url ?? '', spans });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const attribute = (span: ExportedSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

describe('OpenTelemetry traces', () => {
  it('exports a span per request named by its operation, with database and embedding spans under it', async () => {
    exports.length = 0;
    const server = await createTestServer({}, undefined, { environment: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
    const scope = { tenantId: 'traced-tenant', userId: 'traced-user' };
    try {
      expect(server.services.observability.tracing).toBe(true);
      await server.post('/memories/add', { content: 'Secret plans for the traced launch', scope });
      await server.indexed();
      await server.post('/memories/search', { query: 'launch', strategy: 'hybrid', scope });
      const client = await connectMcp(server, 'tracing-test');
      await client.callTool({ name: 'search_memories', arguments: { query: 'launch', tenant_id: 'traced-tenant' } });
      await client.close();
      await server.services.observability.flush();
    } finally {
      await server.close();
    }
    expect(exports.length).toBeGreaterThan(0);
    expect(new Set(exports.map((entry) => entry.path))).toEqual(new Set(['/v1/traces']));
    const spans = exports.flatMap((entry) => entry.spans);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const add = spans.find((span) => span.name === 'memories.add');
    const search = spans.find((span) => span.name === 'memories.search' && span.parentSpanId === undefined);
    expect(add).toBeDefined();
    expect(search).toBeDefined();
    expect(attribute(add as ExportedSpan, 'http.response.status_code')).toBe(201);
    expect(attribute(search as ExportedSpan, 'memory.tenant_gate.wait_ms')).toEqual(expect.anything());
    // Children: the search's statements and its query embedding, in its trace.
    const children = spans.filter((span) => span.parentSpanId === search?.spanId);
    expect(children.map((span) => span.name)).toEqual(expect.arrayContaining(['embedding', 'db.execute']));
    for (const child of children) expect(child.traceId).toBe(search?.traceId);
    // The MCP tool call is a span of its own under the HTTP request to /api/mcp.
    const tool = spans.find((span) => span.name === 'memories.search' && span.parentSpanId !== undefined);
    expect(byId.get(tool?.parentSpanId ?? '')?.name).toBe('mcp');
    expect(attribute(tool as ExportedSpan, 'memory.mcp.tool')).toBe('search_memories');
    // No scope id, no content, anywhere.
    const text = JSON.stringify(spans);
    for (const secret of ['traced-tenant', 'traced-user', 'Secret plans', 'launch']) expect(text).not.toContain(secret);
  });

  it('exports nothing and loads no tracer when no OTLP endpoint is configured', async () => {
    exports.length = 0;
    const server = await createTestServer();
    try {
      expect(server.services.observability.tracing).toBe(false);
      await server.post('/memories/add', { content: 'Untraced', scope: { tenantId: 'untraced' } });
      await server.post('/memories/search', { query: 'untraced', scope: { tenantId: 'untraced' } });
      await server.services.observability.flush();
    } finally {
      await server.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(exports).toEqual([]);
  });
});
