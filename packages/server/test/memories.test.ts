import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, TEST_EMBEDDING_MODEL, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('memories/add', () => {
  it('stores a memory with defaults and answers 201 with the record', async () => {
    const response = await server.call('POST', '/memories/add', {
      content: 'We deploy on Fridays only after the freeze',
      tags: ['deploy'],
    });
    expect(response.status).toBe(201);
    expect(response.body.ok).toBe(true);
    expect(response.body.meta.endpoint).toBe('/api/sdk/v1/memories/add');
    expect(response.body.meta.version).toBe('2026-02-11');
    const data = response.body.data!;
    expect(data.id).toMatch(/^[0-9a-f]{12}$/);
    expect(data.memory).toMatchObject({
      id: data.id,
      type: 'note',
      layer: 'long_term',
      tags: ['deploy'],
      paths: [],
      category: null,
      userId: null,
    });
    expect(data.embeddingModel).toBe(TEST_EMBEDDING_MODEL);
    expect(data.embeddingModelSource).toBe('workspace_default');
  });

  it('defaults the layer of a rule to rule', async () => {
    const data = await server.post<{ memory: { layer: string } }>('/memories/add', {
      content: 'Always write tests',
      type: 'rule',
    });
    expect(data.memory.layer).toBe('rule');
  });

  it('accepts content at 8000 chars and rejects 8001 naming the field', async () => {
    expect((await server.call('POST', '/memories/add', { content: 'x'.repeat(8000) })).status).toBe(201);
    const rejected = await server.call('POST', '/memories/add', { content: 'x'.repeat(8001) });
    expect(rejected.status).toBe(400);
    expect(rejected.body.error).toMatchObject({ code: 'INVALID_REQUEST', type: 'validation_error', retryable: false });
    expect(rejected.body.error!.details!.field).toBe('content');
  });

  it('rejects an empty content, a 51st tag, a 121-char tag, a 101st path and a 121-char category', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ content: '' }, 'content'],
      [{ content: 'x', tags: Array.from({ length: 51 }, (_, index) => `t${index}`) }, 'tags'],
      [{ content: 'x', tags: ['ok', 'y'.repeat(121)] }, 'tags.1'],
      [{ content: 'x', paths: Array.from({ length: 101 }, (_, index) => `p${index}`) }, 'paths'],
      [{ content: 'x', paths: ['z'.repeat(301)] }, 'paths.0'],
      [{ content: 'x', category: 'c'.repeat(121) }, 'category'],
      [{ content: 'x', type: 'gossip' }, 'type'],
    ];
    for (const [body, field] of cases) {
      const response = await server.call('POST', '/memories/add', body);
      expect(response.status, field).toBe(400);
      expect(response.body.error!.details!.field).toBe(field);
    }
    const atLimits = await server.call('POST', '/memories/add', {
      content: 'limits',
      tags: Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(120, 't')),
      paths: Array.from({ length: 100 }, (_, index) => `${index}`.padEnd(300, 'p')),
      category: 'c'.repeat(120),
    });
    expect(atLimits.status).toBe(201);
  });

  it('rejects an embedding model outside the allowlist', async () => {
    const response = await server.call('POST', '/memories/add', {
      content: 'x',
      embeddingModel: 'openai/text-embedding-3-small',
    });
    expect(response.status).toBe(400);
    expect(response.body.error!.code).toBe('EMBEDDING_MODEL_NOT_ALLOWED');
  });
});

describe('memories/search', () => {
  it('finds by content, tags, category and paths, best first', async () => {
    await server.post('/memories/add', {
      content: 'The billing service retries webhooks three times',
      category: 'billing',
    });
    await server.post('/memories/add', { content: 'Unrelated note about lunch', tags: ['food'] });
    await server.post('/memories/add', { content: 'Config lives in a dotfile', paths: ['src/config/loader.ts'] });
    const byContent = await server.post<{
      memories: Array<{ content: string; source: string }>;
      trace: Record<string, unknown>;
    }>('/memories/search', { query: 'webhooks retries', strategy: 'lexical' });
    expect(byContent.memories[0]!.content).toContain('webhooks');
    expect(byContent.memories[0]!.source).toBe('lexical');
    expect(byContent.trace).toMatchObject({
      requestedStrategy: 'lexical',
      appliedStrategy: 'lexical',
      fallbackTriggered: false,
    });
    const byTag = await server.post<{ memories: Array<{ content: string }> }>('/memories/search', {
      query: 'food',
      strategy: 'lexical',
    });
    expect(byTag.memories[0]!.content).toBe('Unrelated note about lunch');
    const byPath = await server.post<{ memories: Array<{ content: string }> }>('/memories/search', {
      query: 'loader',
      strategy: 'lexical',
    });
    expect(byPath.memories[0]!.content).toBe('Config lives in a dotfile');
    const byCategory = await server.post<{ memories: Array<{ content: string }> }>('/memories/search', {
      query: 'billing',
      strategy: 'lexical',
    });
    expect(byCategory.memories[0]!.content).toContain('billing service');
  });

  it('answers QUERY_REQUIRED for an empty or blank query and INVALID_REQUEST past 500 chars', async () => {
    for (const query of ['', '   ', undefined]) {
      const response = await server.call('POST', '/memories/search', query === undefined ? {} : { query });
      expect(response.status).toBe(400);
      expect(response.body.error!.code).toBe('QUERY_REQUIRED');
    }
    expect((await server.call('POST', '/memories/search', { query: 'q'.repeat(500) })).status).toBe(200);
    const long = await server.call('POST', '/memories/search', { query: 'q'.repeat(501) });
    expect(long.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'query' } });
  });

  it('never errors on FTS syntax, quotes and unicode', async () => {
    await server.post('/memories/add', { content: 'Zoë prefers crème brûlée — and “smart quotes”' });
    const nasty = [
      '"unbalanced',
      'a AND OR NOT (',
      'col:value',
      '*',
      'NEAR(a b, 3)',
      "'; DROP TABLE memories; --",
      '^start',
      'emoji 🚀🔥',
      '中文 检索',
      '\\u0000 \u0000',
      'creme brulee',
      '{}[]()<>!@#$%^&*',
    ];
    for (const query of nasty) {
      const response = await server.call('POST', '/memories/search', { query });
      expect(response.status, query).toBe(200);
    }
    const folded = await server.post<{ memories: Array<{ content: string }> }>('/memories/search', {
      query: 'creme brulee',
    });
    expect(folded.memories[0]!.content).toContain('crème brûlée');
  });

  it('answers a hybrid request with the vector index of the default model', async () => {
    await server.indexed();
    const data = await server.post<{ trace: Record<string, unknown> }>('/memories/search', {
      query: 'webhooks',
      strategy: 'hybrid_graph',
    });
    expect(data.trace).toMatchObject({
      requestedStrategy: 'hybrid',
      appliedStrategy: 'hybrid',
      semanticFallbackTriggered: false,
      semanticFallbackReason: null,
      embeddingModel: TEST_EMBEDDING_MODEL,
    });
  });

  it('respects limit bounds 1..50', async () => {
    expect((await server.call('POST', '/memories/search', { query: 'x', limit: 50 })).status).toBe(200);
    expect((await server.call('POST', '/memories/search', { query: 'x', limit: 1 })).status).toBe(200);
    for (const limit of [0, 51, 2.5]) {
      const response = await server.call('POST', '/memories/search', { query: 'x', limit });
      expect(response.body.error!.details!.field).toBe('limit');
    }
  });
});

describe('memories/list, edit, forget, vacuum', () => {
  it('lists newest first, filters by type, layer and comma-separated tags, and bounds limit 1..100', async () => {
    const isolated = await createTestServer();
    try {
      await isolated.post('/memories/add', { content: 'first', type: 'fact', tags: ['a'] });
      await isolated.post('/memories/add', { content: 'second', type: 'decision', tags: ['b'] });
      await isolated.post('/memories/add', { content: 'third', type: 'fact', tags: ['c'], layer: 'working' });
      const all = await isolated.post<{ memories: Array<{ content: string }>; count: number }>('/memories/list', {});
      expect(all.memories.map((memory) => memory.content)).toEqual(['third', 'second', 'first']);
      expect(all.count).toBe(3);
      const facts = await isolated.post<{ memories: Array<{ content: string }> }>('/memories/list', { type: 'fact' });
      expect(facts.memories.map((memory) => memory.content)).toEqual(['third', 'first']);
      const working = await isolated.post<{ memories: Array<{ content: string }> }>('/memories/list', {
        layer: 'working',
      });
      expect(working.memories.map((memory) => memory.content)).toEqual(['third']);
      const tagged = await isolated.post<{ memories: Array<{ content: string }> }>('/memories/list', { tags: 'a, b' });
      expect(tagged.memories.map((memory) => memory.content)).toEqual(['second', 'first']);
      const one = await isolated.post<{ memories: unknown[] }>('/memories/list', { limit: 1 });
      expect(one.memories).toHaveLength(1);
      expect((await isolated.call('POST', '/memories/list', { limit: 100 })).status).toBe(200);
      expect((await isolated.call('POST', '/memories/list', { limit: 101 })).body.error!.details!.field).toBe('limit');
    } finally {
      await isolated.close();
    }
  });

  it('edits fields, requires one editable field, and 404s unknown ids', async () => {
    const { id } = await server.post<{ id: string }>('/memories/add', { content: 'old text', tags: ['x'] });
    const edited = await server.call('POST', '/memories/edit', { id, content: 'new text about kayaks', tags: ['y'] });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id, updated: true, embeddingModel: TEST_EMBEDDING_MODEL });
    const found = await server.post<{ memories: Array<{ id: string; tags: string[] }> }>('/memories/search', {
      query: 'kayaks',
    });
    expect(found.memories[0]).toMatchObject({ id, tags: ['y'] });
    const onlyId = await server.call('POST', '/memories/edit', { id });
    expect(onlyId.status).toBe(400);
    expect(onlyId.body.error!.code).toBe('INVALID_REQUEST');
    const missing = await server.call('POST', '/memories/edit', { id: 'ffffffffffff', content: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'MEMORY_NOT_FOUND', type: 'not_found_error' });
    expect(
      (await server.call('POST', '/memories/edit', { id, content: 'x'.repeat(8001) })).body.error!.details!.field,
    ).toBe('content');
  });

  it('soft-deletes, hides, and vacuum purges', async () => {
    const isolated = await createTestServer();
    try {
      const { id } = await isolated.post<{ id: string }>('/memories/add', { content: 'ephemeral penguin fact' });
      const forgotten = await isolated.call('POST', '/memories/forget', { id });
      expect(forgotten.body.data).toMatchObject({ id, deleted: true });
      expect((await isolated.call('POST', '/memories/forget', { id })).status).toBe(404);
      const search = await isolated.post<{ count: number }>('/memories/search', { query: 'penguin' });
      expect(search.count).toBe(0);
      const stillStored = await isolated.services.resolver.resolve('default', null, new Date());
      const row = await stillStored.database.get<{ deleted_at: string | null }>(
        'SELECT deleted_at FROM memories WHERE id = ?',
        [id],
      );
      expect(row?.deleted_at).not.toBeNull();
      const vacuum = await isolated.post<{ purged: number }>('/memories/vacuum', {});
      expect(vacuum.purged).toBe(1);
      expect(await stillStored.database.get('SELECT id FROM memories WHERE id = ?', [id])).toBeUndefined();
      expect((await isolated.post<{ purged: number }>('/memories/vacuum', {})).purged).toBe(0);
    } finally {
      await isolated.close();
    }
  });
});

describe('memories/bulk-forget', () => {
  it('previews with a dry run, then forgets by type, tags, pattern and age', async () => {
    const isolated = await createTestServer();
    try {
      await isolated.post('/memories/add', { content: 'deploy: use blue-green', type: 'decision', tags: ['ops'] });
      await isolated.post('/memories/add', { content: 'deploy: canary first', type: 'decision' });
      await isolated.post('/memories/add', { content: 'Coffee is at 10', type: 'note', tags: ['office'] });
      await isolated.post('/memories/add', { content: 'A 100% sure fact_ok', type: 'fact' });
      const preview = await isolated.post<{
        dryRun: boolean;
        count: number;
        memories: Array<{ id: string; type: string; contentPreview: string }>;
      }>('/memories/bulk-forget', { filters: { pattern: 'deploy:*' }, dryRun: true });
      expect(preview.dryRun).toBe(true);
      expect(preview.count).toBe(2);
      expect(preview.memories[0]).toHaveProperty('contentPreview');
      expect((await isolated.post<{ count: number }>('/memories/list', {})).count).toBe(4);
      const literal = await isolated.post<{ count: number }>('/memories/bulk-forget', {
        filters: { pattern: 'A 100% sure fact_ok' },
        dryRun: true,
      });
      expect(literal.count).toBe(1);
      const noWildcardMatch = await isolated.post<{ count: number }>('/memories/bulk-forget', {
        filters: { pattern: 'A ?00% sure fact?ok' },
        dryRun: true,
      });
      expect(noWildcardMatch.count).toBe(1);
      const byTags = await isolated.post<{ count: number; ids: string[] }>('/memories/bulk-forget', {
        filters: { tags: ['office'] },
      });
      expect(byTags.count).toBe(1);
      const byType = await isolated.post<{ count: number }>('/memories/bulk-forget', {
        filters: { types: ['decision'] },
      });
      expect(byType.count).toBe(2);
      const old = await isolated.post<{ count: number }>('/memories/bulk-forget', { filters: { olderThanDays: 1 } });
      expect(old.count).toBe(0);
      const everything = await isolated.post<{ count: number }>('/memories/bulk-forget', { all: true });
      expect(everything.count).toBe(1);
    } finally {
      await isolated.close();
    }
  });

  it('requires a filter or all, and refuses all with filters', async () => {
    const none = await server.call('POST', '/memories/bulk-forget', {});
    expect(none.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'filters' } });
    const mixed = await server.call('POST', '/memories/bulk-forget', { all: true, filters: { types: ['note'] } });
    expect(mixed.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'all' } });
  });
});

describe('superseded memories', () => {
  it('are never returned by search once consolidation superseded them', async () => {
    const isolated = await createTestServer();
    try {
      const old = await isolated.post<{ id: string }>('/memories/add', {
        content: 'Deploy window: Tuesdays at 10:00',
        type: 'decision',
        category: 'deploy-window',
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const newer = await isolated.post<{ id: string }>('/memories/add', {
        content: 'Deploy window: Thursdays at 14:00',
        type: 'decision',
        category: 'deploy-window',
      });
      const run = await isolated.post<{ supersededMemoryIds: string[]; winnerMemoryIds: string[] }>(
        '/memories/consolidate',
        {},
      );
      expect(run.supersededMemoryIds).toEqual([old.id]);
      expect(run.winnerMemoryIds).toEqual([newer.id]);
      const found = await isolated.post<{ memories: Array<{ id: string }> }>('/memories/search', {
        query: 'deploy window',
      });
      expect(found.memories.map((memory) => memory.id)).toEqual([newer.id]);
    } finally {
      await isolated.close();
    }
  });
});
