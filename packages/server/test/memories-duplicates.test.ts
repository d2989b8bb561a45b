import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { MemoryStore } from '../src/store/memories.js';
import { contentHash } from '../src/store/memory-rows.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { connectMcp, createTestServer, type TestServer } from './harness.js';

// Issue 24, "No duplicates": an add whose normalised content equals a live memory of the same kind that its scope
// sees answers that memory with `deduplicated: true` and writes no second row, on HTTP and MCP alike.

type Loose = Record<string, any>;

let server: TestServer;
let database: Database;
const clients: Client[] = [];

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server.close();
});

async function add(body: Record<string, unknown>) {
  const response = await server.call('POST', '/memories/add', body);
  expect(response.status, JSON.stringify(response.body.error)).toBe(201);
  return response.body.data as Loose;
}

/** Live memories of a scope with this exact text, as memories/list shows them. */
async function listed(content: string, scope: Record<string, string> = {}): Promise<Loose[]> {
  const data = await server.post<{ memories: Loose[] }>('/memories/list', { limit: 100, scope });
  return data.memories.filter((memory) => memory.content === content);
}

async function rowsWithHash(content: string): Promise<number> {
  const row = await database.get<{ count: number }>('SELECT COUNT(*) AS count FROM memories WHERE content_hash = ?', [
    contentHash(content),
  ]);
  return Number(row?.count);
}

describe('memories/add refuses duplicates', () => {
  it('answers the first memory with deduplicated true and the add status, and stores one row', async () => {
    const first = await add({ content: 'The staging database is restored every Sunday.', tags: ['ops'] });
    expect(first).not.toHaveProperty('deduplicated');
    expect(first.message).toBe('Memory stored');
    const second = await add({
      content: 'The staging database is restored every Sunday.',
      tags: ['other'],
      metadata: { source: 'second' },
    });
    expect(second).toMatchObject({ id: first.id, deduplicated: true });
    expect(second.message).toContain('already stored');
    // The stored memory is returned as it is: the second add's tags and metadata are not applied.
    expect(second.memory).toEqual(first.memory);
    expect(await listed('The staging database is restored every Sunday.')).toHaveLength(1);
    // No second row, event or index job.
    const created = await database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM lifecycle_events WHERE kind = 'memory.created' AND subject_id = ?",
      [first.id],
    );
    expect(Number(created?.count)).toBe(1);
    expect(await rowsWithHash('The staging database is restored every Sunday.')).toBe(1);
  });

  it('folds case, whitespace, Unicode compatibility forms and a final full stop', async () => {
    const first = await add({ content: 'Deploys happen on Friday.' });
    for (const variant of [
      'deploys happen on friday',
      '  DEPLOYS   happen\non Friday! ',
      'Deploys happen on Friday...',
      'Ｄｅｐｌｏｙｓ happen on Friday',
    ]) {
      const again = await add({ content: variant });
      expect(again, variant).toMatchObject({ id: first.id, deduplicated: true });
    }
    expect(await rowsWithHash('Deploys happen on Friday.')).toBe(1);
  });

  it('keeps different facts apart', async () => {
    const base = await add({ content: 'Releases ship on Tuesday' });
    const others = [
      'Releases ship on Tuesday at 5pm',
      'Releases ship on Tuesday?',
      'Releases ship on Tuesdays',
      'Releases ship on Tuesday, not Monday',
    ];
    const ids = new Set([base.id]);
    for (const content of others) {
      const added = await add({ content });
      expect(added, content).not.toHaveProperty('deduplicated');
      ids.add(added.id);
    }
    expect(ids.size).toBe(others.length + 1);
  });

  it('dedupes within a kind: a note equals a fact, a rule or a working memory does not equal a long-term one', async () => {
    const fact = await add({ content: 'Invoices are sent on the first of the month', type: 'fact' });
    expect(await add({ content: 'Invoices are sent on the first of the month.', type: 'note' })).toMatchObject({
      id: fact.id,
      deduplicated: true,
      memory: { type: 'fact' },
    });
    // A rule is injected into every prompt: never the same memory as a fact that is only recalled when relevant.
    const rule = await add({ content: 'Invoices are sent on the first of the month', type: 'rule' });
    expect(rule).not.toHaveProperty('deduplicated');
    expect(rule.memory.layer).toBe('rule');
    expect(await add({ content: 'Invoices are sent on the first of the month', type: 'rule' })).toMatchObject({
      id: rule.id,
      deduplicated: true,
    });
    // A working memory expires after 24 hours: a long-term one with the same text is kept beside it.
    const working = await add({ content: 'Invoices are sent on the first of the month', layer: 'working' });
    expect(working).not.toHaveProperty('deduplicated');
    expect(new Set([fact.id, rule.id, working.id]).size).toBe(3);
  });

  it('answers a shared memory the user sees; never another user’s or another project’s', async () => {
    const shared = await add({ content: 'The office closes at 6pm' });
    // The user reads the shared memory, so re-adding it stores no private copy.
    expect(await add({ content: 'The office closes at 6pm', scope: { userId: 'ada' } })).toMatchObject({
      id: shared.id,
      deduplicated: true,
      memory: { userId: null },
    });
    // The user's own memory: invisible to other users and to calls without a user, so theirs are stored.
    const own = await add({ content: 'My desk is on the third floor', scope: { userId: 'ada' } });
    const other = await add({ content: 'My desk is on the third floor', scope: { userId: 'grace' } });
    const app = await add({ content: 'My desk is on the third floor' });
    expect(new Set([own.id, other.id, app.id]).size).toBe(3);
    expect(await add({ content: 'my desk is on the third floor', scope: { userId: 'grace' } })).toMatchObject({
      id: other.id,
      deduplicated: true,
    });
    // The user's own copy comes first when it sees a shared one too.
    expect(await add({ content: 'My desk is on the third floor', scope: { userId: 'ada' } })).toMatchObject({
      id: own.id,
    });
    // Projects: a project sees global memories, not another project's.
    const global = await add({ content: 'Tabs are two spaces wide' });
    expect(await add({ content: 'Tabs are two spaces wide', scope: { projectId: 'web' } })).toMatchObject({
      id: global.id,
      deduplicated: true,
    });
    const web = await add({ content: 'The API listens on port 4000', scope: { projectId: 'web' } });
    const mobile = await add({ content: 'The API listens on port 4000', scope: { projectId: 'mobile' } });
    expect(mobile.id).not.toBe(web.id);
  });

  it('stores anew what was forgotten or superseded', async () => {
    const first = await add({ content: 'The VPN is required for staging' });
    await server.post('/memories/forget', { id: first.id });
    const again = await add({ content: 'The VPN is required for staging' });
    expect(again).not.toHaveProperty('deduplicated');
    expect(again.id).not.toBe(first.id);
    expect(await listed('The VPN is required for staging')).toHaveLength(1);

    const staging = await add({ content: 'Primary region: eu-west-1', type: 'decision' });
    await add({ content: 'Primary region: us-east-1', type: 'decision' });
    const run = await server.post<{ supersededMemoryIds: string[] }>('/memories/consolidate', {
      types: ['decision'],
      dryRun: false,
    });
    expect(run.supersededMemoryIds).toContain(staging.id);
    const back = await add({ content: 'Primary region: eu-west-1', type: 'decision' });
    expect(back).not.toHaveProperty('deduplicated');
    expect(back.id).not.toBe(staging.id);
  });

  it('stores one row for 20 identical adds at once, sharing or not a group commit', async () => {
    const content = 'The on-call rotation changes every Monday at 9am';
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        server.call('POST', '/memories/add', { content: index % 2 === 0 ? content : content.toUpperCase() }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 201));
    const data = responses.map((response) => response.body.data as Loose);
    expect(new Set(data.map((each) => each.id)).size).toBe(1);
    expect(data.filter((each) => each.deduplicated !== true)).toHaveLength(1);
    expect(await rowsWithHash(content)).toBe(1);
    // One memory.created event, and one index job: the memory is embedded once.
    const created = await database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM lifecycle_events WHERE kind = 'memory.created' AND subject_id = ?",
      [data[0]?.id],
    );
    expect(Number(created?.count)).toBe(1);
    await server.indexed();
    const embedded = await database.get<{ count: number }>(
      'SELECT COUNT(*) AS count FROM embedding_jobs WHERE memory_id = ?',
      [data[0]?.id],
    );
    expect(Number(embedded?.count)).toBe(1);
  });

  it('returns the memory once in context/get', async () => {
    for (let round = 0; round < 3; round += 1) await add({ content: 'The payroll export runs at midnight UTC' });
    const context = await server.post<{ memories: Loose[] }>('/context/get', {
      query: 'payroll export midnight',
      strategy: 'lexical',
    });
    const found = context.memories.filter((memory) => memory.content === 'The payroll export runs at midnight UTC');
    expect(found).toHaveLength(1);
  });
});

describe('add_memory over MCP', () => {
  it('answers the stored memory with deduplicated true the second time', async () => {
    const client = await connectMcp(server, 'memories-duplicates');
    clients.push(client);
    const call = async (content: string) => {
      const result = await client.callTool({ name: 'add_memory', arguments: { content, user_id: 'mcp-user' } });
      expect(result.isError).not.toBe(true);
      return (result.structuredContent as Loose).data as Loose;
    };
    const first = await call('The build cache lives in /var/cache/ci');
    const second = await call('the build cache lives in /var/cache/ci.');
    expect(first).not.toHaveProperty('deduplicated');
    expect(second).toMatchObject({ id: first.id, deduplicated: true });
    expect(await listed('The build cache lives in /var/cache/ci', { userId: 'mcp-user' })).toHaveLength(1);
  });
});

describe('tenant migration 6', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-duplicates-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('rehashes stored memories with the new normalisation, so an add dedupes against them', async () => {
    const legacy = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
    try {
      await migrate(
        legacy,
        tenantMigrations.filter((migration) => migration.version < 6),
      );
      // A hash as versions before 6 computed it: no final full stop folded.
      const content = 'Backups are encrypted at rest.';
      const oldHash = createHash('sha256').update(content.toLowerCase()).digest('hex');
      await legacy.run(
        `INSERT INTO memories (id, content, type, layer, content_hash, created_at, updated_at)
          VALUES ('0123456789ab', ?, 'fact', 'long_term', ?, '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')`,
        [content, oldHash],
      );
      await migrate(legacy, tenantMigrations);

      const stored = await legacy.get<{ content_hash: string }>('SELECT content_hash FROM memories');
      expect(stored?.content_hash).toBe(contentHash('backups are encrypted at rest'));
      const store = new MemoryStore(legacy);
      const entry = {
        memory: {
          content: 'Backups are encrypted at rest',
          type: 'note' as const,
          layer: 'long_term' as const,
          tags: [],
          paths: [],
          category: null,
          metadata: {},
          embeddingModel: null,
          expiresAt: null,
        },
        scope: { tenantId: null, userId: null, projectId: null },
        now: new Date('2030-01-02T00:00:00.000Z'),
      };
      expect(await store.insertUnlessDuplicate([entry])).toEqual([null]);
      expect((await store.findDuplicate(entry))?.id).toBe('0123456789ab');
    } finally {
      await legacy.close();
    }
  });
});
