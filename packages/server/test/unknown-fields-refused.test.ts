import { API_PREFIX, type OperationDefinition, operations } from '@memory-service/contract';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { ADMIN_TOKEN, connectMcp, createTestServer, TEST_KEY, type TestServer } from './harness.js';

// Unknown fields are refused, never dropped, on every route and on MCP, and nothing is stored: dropping the `userId` of
// `{"content": "...", "userId": "bob"}` (it belongs in `scope`) would store a shared memory that every user reads.

let server: TestServer;
let database: Database;
let mcp: Client;

const storedCount = async () =>
  Number((await database.get<{ count: number }>('SELECT COUNT(*) AS count FROM memories'))?.count);

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  mcp = await connectMcp(server, 'unknown-fields-refused');
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

describe('unknown fields over HTTP', () => {
  it('refuses memories/add with a top-level userId: 400 naming it, nothing stored', async () => {
    const response = await server.call('POST', '/memories/add', { content: 'Bob prefers tea', userId: 'bob' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      type: 'validation_error',
      details: { field: 'userId' },
    });
    expect(await storedCount()).toBe(0);
    const seenByAlice = await server.post<{ memories: unknown[] }>('/memories/list', { scope: { userId: 'alice' } });
    expect(seenByAlice.memories).toEqual([]);
  });

  it('names an unknown field inside scope by its dotted path', async () => {
    const response = await server.call('POST', '/memories/add', { content: 'note', scope: { userID: 'bob' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'scope.userID' } });
    expect(await storedCount()).toBe(0);
  });

  const bodyRoutes = Object.values(operations).filter(
    (operation: OperationDefinition) => operation.inputLocation === 'body',
  ) as OperationDefinition[];
  it.each(bodyRoutes.map((operation) => [operation.id, operation] as const))(
    '%s refuses an unknown body field with 400 INVALID_REQUEST',
    async (_id, operation) => {
      const key = operation.auth === 'management' ? ADMIN_TOKEN : TEST_KEY;
      const response = await server.call(operation.method, operation.path, { unexpectedField: 1 }, { key });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'unexpectedField' } });
    },
  );

  const queryRoutes = Object.values(operations).filter(
    (operation: OperationDefinition) => operation.inputLocation === 'query' && operation.id !== 'health',
  ) as OperationDefinition[];
  it.each(queryRoutes.map((operation) => [operation.id, operation] as const))(
    '%s refuses an unknown query parameter with 400 INVALID_REQUEST',
    async (_id, operation) => {
      const key = operation.auth === 'management' ? ADMIN_TOKEN : TEST_KEY;
      const route = operation.path.replace(/\{[^}]+\}/g, 'abc');
      const response = await server.call(operation.method, `${route}?user_id=bob`, undefined, { key });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'user_id' } });
    },
  );

  it('still answers health with an extra query parameter (a probe may add one)', async () => {
    const response = await server.app.request(`${API_PREFIX}/health?probe=1`);
    expect(response.status).toBe(200);
  });
});

describe('unknown arguments on MCP', () => {
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.callTool({ name, arguments: args });
    return { isError: result.isError === true, envelope: result.structuredContent as Record<string, any> };
  };

  it('refuses add_memory with userId: INVALID_REQUEST naming it, nothing stored', async () => {
    const before = await storedCount();
    const refused = await callTool('add_memory', { content: 'Bob prefers tea', userId: 'bob' });
    expect(refused.isError).toBe(true);
    expect(refused.envelope.error).toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
      details: { field: 'userId' },
    });
    expect(await storedCount()).toBe(before);
    // The advertised spelling still works, and lands in bob's scope only.
    const stored = await callTool('add_memory', { content: 'Bob prefers tea', user_id: 'bob' });
    expect(stored.envelope.data.memory.userId).toBe('bob');
    expect(await storedCount()).toBe(before + 1);
  });

  it('refuses an unknown argument of other tools too', async () => {
    const refused = await callTool('search_memories', { query: 'tea', owner: 'bob' });
    expect(refused.envelope.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'owner' } });
  });

  it('advertises that tools take no other arguments', async () => {
    const { tools } = await mcp.listTools();
    const addMemory = tools.find((tool) => tool.name === 'add_memory');
    expect(addMemory?.inputSchema).toMatchObject({ additionalProperties: false });
  });
});
