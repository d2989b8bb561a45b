import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { connectMcp, createTestServer, type TestServer } from './harness.js';

// Issue 24, part 3 ("Time"): a memory knows when what it says happened or was said (`occurredAt`, additive on add,
// edit and every record; default: the write time), and ranking reads it where it read the write time.

type Loose = Record<string, any>;

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server.close();
});

async function add(body: Record<string, unknown>): Promise<Loose> {
  const response = await server.call('POST', '/memories/add', body);
  expect(response.status, JSON.stringify(response.body.error)).toBe(201);
  return response.body.data?.memory as Loose;
}

async function listed(id: string, scope: Record<string, string> = {}): Promise<Loose | undefined> {
  const data = await server.post<{ memories: Loose[] }>('/memories/list', { limit: 100, scope });
  return data.memories.find((memory) => memory.id === id);
}

describe('occurredAt on memories/add and the memory record', () => {
  it('stores the given occurredAt, as UTC, and lists it', async () => {
    const memory = await add({
      content: 'Caroline went to the LGBTQ support group.',
      occurredAt: '2023-05-08T15:56:00+02:00',
    });
    expect(memory.occurredAt).toBe('2023-05-08T13:56:00.000Z');
    expect(memory.createdAt).not.toBe(memory.occurredAt);
    expect((await listed(memory.id))?.occurredAt).toBe('2023-05-08T13:56:00.000Z');
  });

  it('defaults to createdAt when the add names none', async () => {
    const memory = await add({ content: 'The release train leaves on Thursdays.' });
    expect(memory.occurredAt).toBe(memory.createdAt);
    expect((await listed(memory.id))?.occurredAt).toBe(memory.createdAt);
  });

  it.each([
    ['an unparseable value', 'last Tuesday'],
    ['a date without a time', '2023-05-08'],
    ['a datetime without an offset', '2023-05-08T13:56:00'],
    ['a number', 1683554160000],
    ['a date a day ahead', new Date(Date.now() + 86_400_000).toISOString()],
  ])('answers 400 naming occurredAt for %s', async (_, occurredAt) => {
    const response = await server.call('POST', '/memories/add', { content: 'Never stored.', occurredAt });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'occurredAt' } });
  });

  it('accepts a time a minute ahead (clock skew)', async () => {
    const ahead = new Date(Date.now() + 60_000).toISOString();
    expect((await add({ content: 'Clocks disagree by a minute.', occurredAt: ahead })).occurredAt).toBe(ahead);
  });
});

describe('occurredAt on memories/edit', () => {
  it('changes it, alone or with other fields, and leaves createdAt alone', async () => {
    const memory = await add({ content: 'Melanie painted a sunrise.' });
    const edited = await server.post('/memories/edit', { id: memory.id, occurredAt: '2023-05-07T00:00:00Z' });
    expect(edited).toMatchObject({ id: memory.id, updated: true });
    const after = await listed(memory.id);
    expect(after).toMatchObject({ occurredAt: '2023-05-07T00:00:00.000Z', createdAt: memory.createdAt });
    await server.post('/memories/edit', { id: memory.id, tags: ['art'] });
    expect((await listed(memory.id))?.occurredAt).toBe('2023-05-07T00:00:00.000Z');
  });

  it('answers 400 naming occurredAt for a future or malformed value', async () => {
    const memory = await add({ content: 'Edits check the date too.' });
    for (const occurredAt of ['tomorrow', new Date(Date.now() + 3_600_000).toISOString()]) {
      const response = await server.call('POST', '/memories/edit', { id: memory.id, occurredAt });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'occurredAt' } });
    }
  });
});

describe('relative dates resolved against occurredAt', () => {
  it('keeps a resolved yesterday in the record, and resolves again when occurredAt is edited', async () => {
    const memory = await add({
      content: 'Caroline went to the support group yesterday.',
      occurredAt: '2023-05-08T13:56:00Z',
    });
    expect(memory.resolvedDates).toEqual([{ text: 'yesterday', date: '2023-05-07', precision: 'day' }]);
    await server.post('/memories/edit', { id: memory.id, occurredAt: '2023-06-01T09:00:00Z' });
    expect((await listed(memory.id))?.resolvedDates).toEqual([
      { text: 'yesterday', date: '2023-05-31', precision: 'day' },
    ]);
  });

  it('answers an empty list for content without relative dates', async () => {
    expect((await add({ content: 'Deploys happen on Fridays.' })).resolvedDates).toEqual([]);
  });
});

describe('ranking reads occurredAt', () => {
  const scope = { tenantId: 'occurred-ranking' };

  it('ranks an older occurredAt below a newer equal-relevance memory in hybrid context/get', async () => {
    // The memory said long ago matches a little better (shorter) and is written last: by write time it would be the
    // newest, and it ranked first before occurredAt. The recency prior is worth more than one rank step.
    const recent = await add({
      content: 'Ada adopted a grey kitten named Pixel from the shelter on Main Street.',
      scope,
    });
    const old = await add({
      content: 'Bob adopted a grey kitten named Pixel.',
      occurredAt: '2023-01-15T10:00:00Z',
      scope,
    });
    await server.indexed();
    const context = await server.post<{ memories: Loose[] }>('/context/get', {
      query: 'grey kitten named Pixel',
      strategy: 'hybrid',
      includeRules: false,
      scope,
    });
    const ids = context.memories.map((memory) => memory.id);
    expect(ids).toContain(old.id);
    expect(ids.indexOf(recent.id)).toBeLessThan(ids.indexOf(old.id));
    expect(context.memories.find((memory) => memory.id === old.id)?.occurredAt).toBe('2023-01-15T10:00:00.000Z');
  });

  it('orders the recency fallback of context/get by occurredAt', async () => {
    const fallbackScope = { tenantId: 'occurred-fallback' };
    const said = await add({ content: 'Standup moved to ten.', scope: fallbackScope });
    const imported = await add({
      content: 'Standup was at nine.',
      occurredAt: '2024-02-01T09:00:00Z',
      scope: fallbackScope,
    });
    const context = await server.post<{ memories: Loose[]; trace: Loose }>('/context/get', {
      query: 'zzzzqqq',
      strategy: 'lexical',
      includeRules: false,
      scope: fallbackScope,
    });
    expect(context.trace.fallbackReason).toBe('no_match_recency_fallback');
    expect(context.memories.map((memory) => memory.id)).toEqual([said.id, imported.id]);
  });

  it('keeps memories/list newest written first', async () => {
    const listScope = { tenantId: 'occurred-list' };
    const first = await add({ content: 'Written first, said now.', scope: listScope });
    const second = await add({
      content: 'Written second, said in 2022.',
      occurredAt: '2022-06-01T00:00:00Z',
      scope: listScope,
    });
    const data = await server.post<{ memories: Loose[] }>('/memories/list', { scope: listScope });
    expect(data.memories.map((memory) => memory.id)).toEqual([second.id, first.id]);
  });
});

describe('add_memory and edit_memory over MCP', () => {
  it('take occurred_at', async () => {
    const client = await connectMcp(server, 'memories-occurred-at');
    clients.push(client);
    const tools = await client.listTools();
    const addTool = tools.tools.find((tool) => tool.name === 'add_memory');
    expect(Object.keys(addTool?.inputSchema.properties ?? {})).toContain('occurred_at');

    const added = await client.callTool({
      name: 'add_memory',
      arguments: { content: 'Jon opened his dance studio.', occurred_at: '2023-06-20T12:00:00Z' },
    });
    expect(added.isError).not.toBe(true);
    const memory = ((added.structuredContent as Loose).data as Loose).memory as Loose;
    expect(memory.occurredAt).toBe('2023-06-20T12:00:00.000Z');

    const edited = await client.callTool({
      name: 'edit_memory',
      arguments: { id: memory.id, occurred_at: '2023-06-21T12:00:00Z' },
    });
    expect(edited.isError).not.toBe(true);
    expect((await listed(memory.id))?.occurredAt).toBe('2023-06-21T12:00:00.000Z');

    const refused = await client.callTool({
      name: 'add_memory',
      arguments: { content: 'Never stored either.', occurred_at: 'next week' },
    });
    expect(refused.isError).toBe(true);
    expect(((refused.structuredContent as Loose).error as Loose).details).toMatchObject({ field: 'occurredAt' });
  });
});

describe('tenant migration 7', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-occurred-at-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('backfills occurred_at from created_at', async () => {
    const legacy = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
    try {
      await migrate(
        legacy,
        tenantMigrations.filter((migration) => migration.version < 7),
      );
      await legacy.run(
        `INSERT INTO memories (id, content, type, layer, content_hash, created_at, updated_at)
          VALUES ('0123456789ab', 'Stored before migration 7.', 'fact', 'long_term', 'hash',
                  '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z')`,
      );
      await migrate(legacy, tenantMigrations);
      const row = await legacy.get<{ occurred_at: string }>('SELECT occurred_at FROM memories');
      expect(row?.occurred_at).toBe('2025-01-01T00:00:00.000Z');
    } finally {
      await legacy.close();
    }
  });
});
