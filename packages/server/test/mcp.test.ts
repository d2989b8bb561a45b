import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/server.js';

const KEY = `mem_${'a1'.repeat(32)}`;
const UNKNOWN_KEY = `mem_${'b2'.repeat(32)}`;

type Loose = Record<string, any>;

let server: RunningServer;
let dataDir: string;
const clients: Client[] = [];

async function connect(options: { key?: string; modern?: boolean; fetch?: typeof fetch } = {}): Promise<Client> {
  const client = new Client(
    { name: 'memory-service-test', version: '1.0.0' },
    options.modern ? { versionNegotiation: { mode: 'auto' } } : undefined,
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${options.key ?? KEY}` } },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, envelope: result.structuredContent as Loose, content: result.content };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'memory-service-mcp-'));
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    bootstrapApiKey: KEY,
    logLevel: 'silent',
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
  });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('MCP at /api/mcp', () => {
  it('lists the tools with snake_case arguments and a flat scope', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'get_context',
      'get_rules',
      'add_memory',
      'edit_memory',
      'forget_memory',
      'search_memories',
      'list_memories',
      'bulk_forget_memories',
      'vacuum_memories',
      'start_session',
      'checkpoint_session',
      'end_session',
      'snapshot_session',
      'upsert_skill_file',
      'list_skill_files',
      'delete_skill_file',
      'promote_skill_file',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    const properties = (name: string) => Object.keys(byName.get(name)?.inputSchema.properties ?? {});
    expect(properties('add_memory')).toEqual(expect.arrayContaining(['content', 'tenant_id', 'user_id', 'project_id']));
    expect(properties('add_memory')).not.toContain('scope');
    expect(properties('get_context')).toEqual(
      expect.arrayContaining(['query', 'retrieval_strategy', 'include_rules', 'graph_depth', 'tenant_id']),
    );
    expect(properties('get_context')).not.toContain('strategy');
    expect(properties('get_rules')).not.toContain('mode');
    expect(properties('snapshot_session')).toEqual(expect.arrayContaining(['session_id', 'tenant_id']));
    expect(properties('checkpoint_session')).toEqual(expect.arrayContaining(['session_id', 'is_meaningful']));
    for (const tool of tools) {
      for (const property of Object.keys(tool.inputSchema.properties ?? {})) expect(property).toMatch(/^[a-z0-9_]+$/);
      for (const argument of tool.inputSchema.required ?? [])
        expect(tool.inputSchema.properties).toHaveProperty(argument);
    }
    expect(byName.get('add_memory')?.inputSchema.required).toEqual(['content']);
    const add = byName.get('add_memory');
    expect(add?.inputSchema.properties?.content).toMatchObject({ type: 'string' });
    expect(add?.inputSchema.properties?.tenant_id).toMatchObject({ type: 'string' });
    expect(add?.outputSchema?.properties).toHaveProperty('ok');
  });

  it('adds a memory and finds it with get_context; results carry the envelope and a text rendering', async () => {
    const client = await connect();
    const added = await call(client, 'add_memory', {
      content: 'The deploy script lives in scripts/ship-it.sh',
      type: 'fact',
      tags: ['deploy'],
    });
    expect(added.isError).toBe(false);
    expect(added.envelope.ok).toBe(true);
    expect(added.envelope.error).toBeNull();
    expect(added.envelope.meta).toMatchObject({ endpoint: '/api/mcp#add_memory' });
    expect(added.envelope.meta.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const id = added.envelope.data.id as string;
    expect(added.envelope.data.memory).toMatchObject({ id, content: 'The deploy script lives in scripts/ship-it.sh' });
    expect(added.content).toEqual([{ type: 'text', text: JSON.stringify(added.envelope.data, null, 2) }]);

    const context = await call(client, 'get_context', { query: 'deploy script', retrieval_strategy: 'baseline' });
    expect(context.isError).toBe(false);
    expect(context.envelope.data).toMatchObject({ query: 'deploy script', trace: expect.any(Object) });
    expect(context.envelope.data.memories.map((memory: Loose) => memory.id)).toContain(id);
    expect(context.envelope.data.trace.retrievalPolicySelection).toBe('request');
  });

  it('answers invalid arguments with the contract error envelope and its code', async () => {
    const client = await connect();
    const missing = await call(client, 'add_memory', { type: 'fact' });
    expect(missing.isError).toBe(true);
    expect(missing.envelope).toMatchObject({
      ok: false,
      data: null,
      error: { code: 'INVALID_REQUEST', status: 400, type: 'validation_error', details: { field: 'content' } },
    });
    expect(missing.content).toEqual([{ type: 'text', text: `INVALID_REQUEST: ${missing.envelope.error.message}` }]);

    const wrongType = await call(client, 'add_memory', { content: 42 });
    expect(wrongType.envelope.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'content' } });

    const noQuery = await call(client, 'search_memories', {});
    expect(noQuery.envelope.error.code).toBe('QUERY_REQUIRED');

    const badTenant = await call(client, 'list_memories', { tenant_id: '-not valid-' });
    expect(badTenant.envelope.error.code).toBe('TENANT_ID_INVALID');

    const noSession = await call(client, 'checkpoint_session', { content: 'hello' });
    expect(noSession.envelope.error.code).toBe('SESSION_ID_REQUIRED');
  });

  it('routes by tenant_id: a tenant memory is invisible without it', async () => {
    const client = await connect();
    const added = await call(client, 'add_memory', { content: 'Acme uses blue-green deploys', tenant_id: 'acme' });
    expect(added.isError).toBe(false);
    const id = added.envelope.data.id as string;
    const inTenant = await call(client, 'list_memories', { tenant_id: 'acme' });
    expect(inTenant.envelope.data.memories.map((memory: Loose) => memory.id)).toContain(id);
    const outside = await call(client, 'list_memories', {});
    expect(outside.envelope.data.memories.map((memory: Loose) => memory.id)).not.toContain(id);
    const otherTenant = await call(client, 'search_memories', { query: 'blue-green', tenant_id: 'globex' });
    expect(otherTenant.envelope.data.memories).toEqual([]);
  });

  it('runs the session tools, including snapshot_session with session_id as an argument', async () => {
    const client = await connect();
    const started = await call(client, 'start_session', { title: 'MCP session', user_id: 'ada' });
    expect(started.isError).toBe(false);
    const sessionId = started.envelope.data.sessionId as string;
    const checkpoint = await call(client, 'checkpoint_session', {
      session_id: sessionId,
      content: 'Decided to ship on Friday',
      user_id: 'ada',
    });
    expect(checkpoint.envelope.ok).toBe(true);
    const ended = await call(client, 'end_session', { session_id: sessionId, user_id: 'ada' });
    expect(ended.envelope.ok).toBe(true);
    const snapshot = await call(client, 'snapshot_session', { session_id: sessionId, user_id: 'ada' });
    expect(snapshot.envelope.ok).toBe(true);
    expect(snapshot.envelope.data.snapshot.transcriptMd).toContain('Decided to ship on Friday');
    const unknown = await call(client, 'snapshot_session', { session_id: 'no-such-session' });
    expect(unknown.envelope.error.code).toBe('SESSION_NOT_FOUND');
  });

  it('get_rules forces the rules-only mode', async () => {
    const client = await connect();
    // The app writes rules over HTTP: MCP refuses them from a key without the permission (mcp-rule-writes.test.ts).
    const added = await fetch(`${server.url}/api/sdk/v1/memories/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Always write tests first', type: 'rule' }),
    });
    expect(added.status).toBe(201);
    const rules = await call(client, 'get_rules', { query: 'anything', mode: 'full' });
    expect(rules.envelope.ok).toBe(true);
    expect(rules.envelope.data.mode).toBe('rules_only');
    expect(rules.envelope.data.rules.map((rule: Loose) => rule.content)).toContain('Always write tests first');
  });

  it('serves a client negotiating the 2026 protocol too', async () => {
    const contentTypes: string[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      contentTypes.push(response.headers.get('content-type') ?? '');
      return response;
    };
    const client = await connect({ modern: true, fetch: recordingFetch });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('add_memory');
    const listed = await call(client, 'list_memories', { limit: 1 });
    expect(listed.envelope.ok).toBe(true);
    expect(contentTypes.length).toBeGreaterThan(0);
    for (const contentType of contentTypes) expect(contentType).toMatch(/^application\/json/);
  });

  it('answers ping', async () => {
    const client = await connect();
    await expect(client.ping()).resolves.toBeDefined();
  });

  it('answers in JSON, not SSE, and gives every response a request id', async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await response.json()) as Loose;
    expect(body.result.serverInfo.name).toBe('memory-service');

    const stream = await fetch(`${server.url}/api/mcp`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(stream.status).toBe(405);
  });

  it('refuses a missing or unknown key with HTTP 401 and the contract envelope before MCP', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const missing = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers, body: initialize });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await missing.json()).toMatchObject({
      ok: false,
      data: null,
      error: { code: 'MISSING_API_KEY', status: 401, type: 'auth_error' },
      meta: { endpoint: '/api/mcp' },
    });
    const unknown = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${UNKNOWN_KEY}` },
      body: initialize,
    });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as Loose).error.code).toBe('INVALID_API_KEY');
    const malformed = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer not-a-key' },
      body: initialize,
    });
    expect(((await malformed.json()) as Loose).error.code).toBe('INVALID_API_KEY_FORMAT');

    await expect(connect({ key: UNKNOWN_KEY })).rejects.toThrow();
  });
});

describe('MCP rate limiting per client address', () => {
  it('answers 429 with the contract envelope before looking at the key', async () => {
    const limited = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir: mkdtempSync(path.join(tmpdir(), 'memory-service-mcp-limit-')),
      bootstrapApiKey: KEY,
      logLevel: 'silent',
      rateLimitPerMinute: 0,
      ipRateLimitPerMinute: 2,
    });
    try {
      const attempt = () =>
        fetch(`${limited.url}/api/mcp`, { method: 'POST', headers: { authorization: `Bearer ${UNKNOWN_KEY}` } });
      expect((await attempt()).status).toBe(401);
      expect((await attempt()).status).toBe(401);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused.json()) as Loose).error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 2 } });
    } finally {
      await limited.close();
      rmSync(limited.services.config.dataDir, { recursive: true, force: true });
    }
  });
});

describe('/api/mcp/key (legacy alias of /management/keys)', () => {
  it('answers like the management route, with Deprecation and Link headers', async () => {
    for (const method of ['GET', 'DELETE']) {
      const init = { method, headers: { authorization: `Bearer ${UNKNOWN_KEY}` } };
      const alias = await fetch(`${server.url}/api/mcp/key`, init);
      const route = await fetch(`${server.url}/api/sdk/v1/management/keys`, init);
      expect(alias.status).toBe(route.status);
      const aliasBody = (await alias.json()) as Loose;
      const routeBody = (await route.json()) as Loose;
      expect(aliasBody.ok).toBe(routeBody.ok);
      expect(aliasBody.error).toEqual(routeBody.error);
      expect(aliasBody.meta.endpoint).toBe('/api/mcp/key');
      expect(alias.headers.get('deprecation')).toBe('true');
      expect(alias.headers.get('link')).toBe('</api/sdk/v1/management/keys>; rel="successor-version"');
      expect(route.headers.get('deprecation')).toBeNull();
    }
    const post = await fetch(`${server.url}/api/mcp/key`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    const postRoute = await fetch(`${server.url}/api/sdk/v1/management/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(post.status).toBe(postRoute.status);
    expect(((await post.json()) as Loose).error).toEqual(((await postRoute.json()) as Loose).error);
    expect(post.headers.get('deprecation')).toBe('true');
  });
});
