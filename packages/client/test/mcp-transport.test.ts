import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  ConnectionError,
  MemoryApiError,
  NotFoundError,
  TimeoutError,
  UnsupportedOperationError,
  ValidationError,
} from '../src/index.js';
import { API_KEY, attemptsOverTime, createTestClient, errorEnvelope, MCP_URL, successEnvelope } from './helpers.js';

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  authorization: string | null;
}

type ToolResult = { structuredContent?: unknown; isError?: boolean; content?: Array<{ type: 'text'; text: string }> };

const toolCalls: ToolCall[] = [];
let answerTool: (call: ToolCall) => ToolResult | Promise<ToolResult> = () => ({
  structuredContent: successEnvelope({ ok: 'default' }),
  content: [{ type: 'text', text: 'ok' }],
});

// A minimal stateless MCP server: initialize, the initialized notification, tools/call; no SSE stream.
const server = setupServer(
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
        serverInfo: { name: 'fake-memory-service', version: '0.0.0' },
      });
    }
    if (message.method === 'tools/call') {
      const call = {
        name: String(message.params?.name),
        arguments: (message.params?.arguments ?? {}) as Record<string, unknown>,
        authorization: request.headers.get('authorization'),
      };
      toolCalls.push(call);
      return reply({ content: [], ...(await answerTool(call)) });
    }
    return reply({});
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  toolCalls.length = 0;
  vi.useRealTimers();
});
afterAll(() => server.close());

const answerWith = (result: (call: ToolCall) => ToolResult | Promise<ToolResult>) => {
  answerTool = result;
};

function mcpClient(options: Parameters<typeof createTestClient>[0] = {}) {
  return createTestClient({ baseUrl: MCP_URL, scope: { tenantId: 'acme', userId: 'u1' }, ...options });
}

describe('the mcp transport', () => {
  it('is chosen by auto for a base URL ending in /api/mcp', async () => {
    const client = mcpClient();
    expect(client.transport).toBe('mcp');
    await client.close();
  });

  it('calls the operation tool with snake_case arguments and a flat scope, and returns the envelope data', async () => {
    answerWith(() => ({ structuredContent: successEnvelope({ id: 'm1', message: 'stored' }) }));
    const client = mcpClient();
    const result = await client.memories.add({
      content: 'Deploy on Tuesdays',
      type: 'rule',
      embeddingModel: 'local/hash-384',
    });
    expect(result).toEqual({ id: 'm1', message: 'stored' });
    expect(toolCalls).toEqual([
      {
        name: 'add_memory',
        arguments: {
          content: 'Deploy on Tuesdays',
          type: 'rule',
          embedding_model: 'local/hash-384',
          tenant_id: 'acme',
          user_id: 'u1',
        },
        authorization: `Bearer ${API_KEY}`,
      },
    ]);
    await client.close();
  });

  it('maps context.get, sessions.snapshot and memories.search to their tools', async () => {
    answerWith(() => ({ structuredContent: successEnvelope({ memories: [], rules: [], skillFiles: [] }) }));
    const client = mcpClient();
    const context = await client.context.get({ query: 'q', strategy: 'lexical', sessionId: 's1', taskCompleted: true });
    await client.sessions.snapshot('s1');
    await client.memories.search({ query: 'deploy', scope: { projectId: 'repo' } });
    expect(context.session.triggerHint).toBe('semantic');
    expect(toolCalls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: 'get_context', args: { query: 'q', retrieval_strategy: 'lexical', tenant_id: 'acme', user_id: 'u1' } },
      { name: 'snapshot_session', args: { session_id: 's1', tenant_id: 'acme', user_id: 'u1' } },
      { name: 'search_memories', args: { query: 'deploy', tenant_id: 'acme', user_id: 'u1', project_id: 'repo' } },
    ]);
    await client.close();
  });

  it.each([
    ['SESSION_NOT_FOUND', 404, 'not_found_error', NotFoundError],
    ['SESSION_NOT_ACTIVE', 409, 'validation_error', ValidationError],
    ['INVALID_API_KEY', 401, 'auth_error', AuthError],
  ] as const)('turns an error envelope (%s) into the same class as HTTP', async (code, status, type, errorClass) => {
    answerWith(() => ({ isError: true, structuredContent: errorEnvelope(code, status, type) }));
    const client = mcpClient();
    const error = await client.sessions.end({ sessionId: 's1' }).catch((caught: unknown) => caught);
    expect(errorClass.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code, status, type, operationId: 'sessions.end' });
    expect((error as Error).message).toContain('MCP tool end_session');
    await client.close();
  });

  it('retries a rate-limited tool call after retryAfterSeconds (a write: a 429 was refused before any work)', async () => {
    const counter = { attempts: 0 };
    answerWith(({ name }) => {
      if (name !== 'start_session') return { structuredContent: successEnvelope({ count: 0 }) };
      counter.attempts += 1;
      return counter.attempts === 1
        ? {
            isError: true,
            structuredContent: errorEnvelope('RATE_LIMITED', 429, 'rate_limit_error', { retryAfterSeconds: 4 }),
          }
        : { structuredContent: successEnvelope({ sessionId: 's1' }) };
    });
    const client = mcpClient();
    await client.memories.list(); // connects with real timers
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const started = client.sessions.start({ title: 't' });
    expect(await attemptsOverTime(counter, [0, 3_999, 1])).toEqual([1, 1, 2]);
    await expect(started).resolves.toEqual({ sessionId: 's1' });
    await client.close();
  });

  it('does not retry a write after an ambiguous failure, but retries the same failure on a read', async () => {
    let calls = 0;
    answerWith(() => {
      calls += 1;
      return { isError: true, structuredContent: errorEnvelope('INTERNAL_ERROR', 500, 'internal_error') };
    });
    const client = mcpClient();
    await expect(client.memories.add({ content: 'x' })).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(calls).toBe(1);
    await expect(client.memories.search({ query: 'q' })).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(calls).toBe(1 + 3);
    await client.close();
  });

  it('turns an HTTP error envelope from the MCP endpoint into a typed error', async () => {
    server.use(
      http.post(MCP_URL, () =>
        HttpResponse.json(errorEnvelope('INVALID_API_KEY', 401, 'auth_error', undefined, '/api/mcp'), { status: 401 }),
      ),
    );
    const client = mcpClient();
    const error = await client.memories.list().catch((caught: unknown) => caught);
    expect(AuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_API_KEY', status: 401, endpoint: '/api/mcp' });
    await client.close();
  });

  it('throws a clear error for a method without an MCP tool', async () => {
    const client = mcpClient();
    const error = await client.health().catch((caught: unknown) => caught);
    expect(UnsupportedOperationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      "health is not available over the mcp transport (the MCP endpoint has no tool for it); use transport 'sdk_http'",
    );
    await expect(client.management.keys.get()).rejects.toThrow(/management\.keys\.get is not available over the mcp/);
    expect(toolCalls).toHaveLength(0);
    await client.close();
  });

  it('reports a tool error without an envelope', async () => {
    answerWith(() => ({ isError: true, content: [{ type: 'text', text: 'Input validation error: content' }] }));
    const client = mcpClient();
    const error = await client.memories.add({ content: 'x' }).catch((caught: unknown) => caught);
    expect(MemoryApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MCP_TOOL_ERROR' });
    expect((error as Error).message).toContain('Input validation error: content');
    await client.close();
  });

  it('times out a slow tool call', async () => {
    answerWith(async () => {
      await delay(2_000);
      return { structuredContent: successEnvelope({}) };
    });
    const client = mcpClient({ timeoutMs: 50 });
    const error = await client.memories.add({ content: 'x' }).catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(error)).toBe(true);
    await client.close();
  });

  it('ends a call at its totalTimeoutMs, retries and all', async () => {
    let calls = 0;
    answerWith(async () => {
      calls += 1;
      await delay(2_000);
      return { structuredContent: successEnvelope({}) };
    });
    const client = mcpClient({ timeoutMs: 60_000, maxRetries: 5 });
    const error = await client.memories
      .search({ query: 'q' }, { totalTimeoutMs: 150 })
      .catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("the call's total of 150 ms");
    expect(calls).toBe(1);
    await client.close();
  });

  it('turns a network failure into a ConnectionError and reconnects on the next call', async () => {
    server.use(http.post(MCP_URL, () => HttpResponse.error(), { once: true }));
    answerWith(() => ({ structuredContent: successEnvelope({ count: 0 }) }));
    const client = mcpClient({ maxRetries: 0 });
    await expect(client.memories.list()).rejects.toBeInstanceOf(ConnectionError);
    await expect(client.memories.list()).resolves.toEqual({ count: 0 });
    await client.close();
  });
});
