import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectKey } from '../src/consolidation/subject-key.js';
import { extractEntities } from '../src/graph/entities.js';
import { COSINE_SIMILARITY_THRESHOLD, similarMemories } from '../src/graph/related-memories.js';
import { jaccard, LEXICAL_SIMILARITY_THRESHOLD, shingles } from '../src/graph/text-similarity.js';
import type { Database } from '../src/store/database.js';
import { MEMORY_COLUMNS, type MemoryRow } from '../src/store/memory-rows.js';
import { workspaceDatabase, workspaceTenant } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

describe('entity extraction rules', () => {
  const keys = (text: string, paths: string[] = []) =>
    extractEntities(text, paths)
      .map((entity) => entity.key)
      .sort();

  it('finds backticks, URLs, e-mails, handles, paths and identifiers with their confidences', () => {
    const entities = extractEntities(
      'The Payment Service calls `retryCharge()` in src/payments/retry.ts; see https://stripe.com/docs/api. Ask @alice or bob@example.com about MAX_RETRIES.',
    );
    expect(Object.fromEntries(entities.map((entity) => [entity.key, entity.confidence]))).toEqual({
      'retrycharge()': 0.9,
      'https://stripe.com/docs/api': 0.9,
      'bob@example.com': 0.9,
      'src/payments/retry.ts': 0.9,
      '@alice': 0.85,
      max_retries: 0.8,
      'payment service': 0.8,
    });
  });

  it('reads names from capitalisation without taking sentence openers', () => {
    expect(keys('Always answer in British English')).toEqual(['british english']);
    expect(keys('Payments use Stripe with idempotency keys')).toEqual(['stripe']);
    expect(keys("Caroline's friend Melanie went to New York. Then Caroline said hi")).toEqual([
      'caroline',
      'melanie',
      'new york',
    ]);
    expect(keys('We moved from MySQL to PostgreSQL; the JWT lives in config.yaml')).toEqual([
      'config.yaml',
      'jwt',
      'mysql',
      'postgresql',
    ]);
  });

  it('takes rooted or deep paths and the paths field, not word pairs like and/or', () => {
    expect(
      keys('Use read/write locks, and/or a mutex. Builds go through packages/server/src.', ['./docs/adr-1.md']),
    ).toEqual(['docs/adr-1.md', 'packages/server/src']);
  });
});

describe('subject keys and lexical similarity', () => {
  it('uses the category (as context), else the text before a colon, else the first six words', () => {
    expect(subjectKey('Anything', 'Deploy  Target')).toEqual({ key: 'deploy target: anything', source: 'category' });
    expect(subjectKey('Deploy target: staging', null)).toEqual({ key: 'deploy target', source: 'prefix' });
    expect(subjectKey('See https://example.com for the docs of the API', null)).toEqual({
      key: 'see https example com for the',
      source: 'first_words',
    });
  });

  it('scores a reworded fact above the threshold and a shared topic word below it', () => {
    const original = shingles('Payments use Stripe with idempotency keys');
    expect(
      jaccard(original, shingles('We use Stripe for payments, with idempotency keys on every charge')),
    ).toBeGreaterThanOrEqual(LEXICAL_SIMILARITY_THRESHOLD);
    expect(jaccard(original, shingles('Payment retries back off exponentially'))).toBeLessThan(0.2);
  });
});

describe('graph extraction on add and edit', () => {
  let server: TestServer;
  let database: Database;
  beforeAll(async () => {
    server = await createTestServer();
    database = await workspaceDatabase(server);
  });
  afterAll(async () => {
    await server.close();
  });

  // Each memory is indexed before the next is written, so every expectation below sees the ones before it.
  const add = async (body: Record<string, unknown>) => {
    const { id } = await server.post<{ id: string }>('/memories/add', body);
    await server.indexed();
    return id;
  };
  const links = async (memoryId: string) =>
    (
      await database.all<{ node_id: string; edge_type: string; confidence: number }>(
        'SELECT node_id, edge_type, confidence FROM graph_memory_links WHERE memory_id = ? ORDER BY node_id',
        [memoryId],
      )
    ).map((row) => `${row.edge_type} ${row.node_id} ${row.confidence}`);
  const edges = async (memoryId: string) =>
    (
      await database.all<{ source_memory_id: string; target_memory_id: string; edge_type: string; confidence: number }>(
        `SELECT source_memory_id, target_memory_id, edge_type, confidence FROM graph_edges
          WHERE source_memory_id = ? OR target_memory_id = ? ORDER BY edge_type, source_memory_id`,
        [memoryId, memoryId],
      )
    ).map((row) => `${row.source_memory_id} ${row.edge_type} ${row.target_memory_id} ${row.confidence}`);

  it('links topics, category, repo, user and entities', async () => {
    const id = await add({
      content: 'The checkout calls Stripe through `chargeCard`',
      tags: ['Payments', '#billing'],
      category: 'Checkout Flow',
      scope: { userId: 'dana', projectId: 'acme/shop' },
    });
    expect(await links(id)).toEqual([
      'in_category category:checkout flow 1',
      'mentions entity:chargecard 0.9',
      'mentions entity:stripe 0.6',
      'in_repo repo:acme/shop 1',
      'has_topic topic:billing 1',
      'has_topic topic:payments 1',
      'by_user user:dana 1',
    ]);
    const node = await database.get<{ type: string; label: string }>(
      'SELECT type, label FROM graph_nodes WHERE id = ?',
      [`memory:${id}`],
    );
    expect(node).toEqual({ type: 'memory', label: id });
  });

  it('adds similar_to, caused_by, depends_on and same-subject contradicts or duplicate edges', async () => {
    const stripe = await add({ content: 'Payments use Stripe with idempotency keys' });
    const reworded = await add({ content: 'We use Stripe for payments, with idempotency keys on every charge' });
    const nearCopy = await add({ content: 'Payments use Stripe with idempotency keys, always' });
    const outage = await add({
      content: 'The March outage came from a missing index',
      metadata: { causedBy: 'nope00000000' },
    });
    const fix = await add({
      content: 'Add the orders index before deploying',
      metadata: { causedBy: outage, dependsOn: [stripe, 'missing'] },
    });
    const staging = await add({ content: 'Deploy target: staging', type: 'decision' });
    const production = await add({ content: 'Deploy target: production', type: 'decision' });
    // Adds refuse duplicates; an edit can still make one (consolidation merges it later).
    const copy = await add({ content: 'Deploy notes: copied', type: 'decision' });
    await server.post('/memories/edit', { id: copy, content: 'deploy TARGET:   production' });
    await server.indexed();
    // Cosine of the stored vectors decides (>= 0.85): the near copy is similar, the looser rewording (0.80 with the
    // test's hashing model) is not.
    const similar = await database.all<{ confidence: number; detail: string }>(
      `SELECT confidence, detail FROM graph_edges WHERE edge_type = 'similar_to' AND source_memory_id = ? AND target_memory_id = ?`,
      [nearCopy, stripe],
    );
    expect(similar).toHaveLength(1);
    expect(Number(similar[0]?.confidence)).toBeGreaterThanOrEqual(COSINE_SIMILARITY_THRESHOLD);
    // The near copy restates its nearest neighbour word for word but a filler: marked for consolidation to merge.
    expect(JSON.parse(String(similar[0]?.detail))).toEqual({ measure: 'cosine', paraphrase: true, newerId: nearCopy });
    expect((await edges(reworded)).filter((edge) => edge.includes('similar_to'))).toEqual([]);
    // A memory without a vector (its model failed) is compared by word-shingle Jaccard instead.
    const row = await database.get<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ?`, [reworded]);
    const lexical = await similarMemories(await workspaceTenant(server), {
      ...(row as MemoryRow),
      embedding_model: 'test/unavailable',
    });
    expect(lexical.find((edge) => edge.targetId === stripe)?.confidence).toBe(0.467);
    expect(lexical.map((edge) => edge.detail)).toEqual(lexical.map(() => ({ measure: 'word_shingle_jaccard' })));
    expect(await edges(outage)).toEqual([`${fix} caused_by ${outage} 1`]);
    expect(await edges(fix)).toEqual([`${fix} caused_by ${outage} 1`, `${fix} depends_on ${stripe} 1`]);
    // The same claim with another value: a contradiction, and for decisions the older is superseded at once.
    expect(await edges(production)).toEqual(
      expect.arrayContaining([`${production} contradicts ${staging} 0.9`, `${production} supersedes ${staging} 1`]),
    );
    const superseded = await database.get<{ superseded_by: string }>(
      'SELECT superseded_by FROM memories WHERE id = ?',
      [staging],
    );
    expect(superseded?.superseded_by).toBe(production);
    // An identical one is a duplicate, never a contradiction.
    expect(await edges(copy)).toContain(`${copy} similar_to ${production} 1`);
    expect((await edges(copy)).filter((edge) => edge.startsWith(`${copy} contradicts ${production}`))).toEqual([]);
  });

  it('flags contradictions only between statements of a subject that is not a log', async () => {
    const noteA = await add({ content: 'Sprint goal: ship search' });
    const noteB = await add({ content: 'Sprint goal: fix billing' });
    expect(await edges(noteA)).toEqual([]);
    expect(await edges(noteB)).toEqual([]);
    const speaker = await add({ content: 'Mel: hi' });
    expect(await add({ content: 'Mel: see you' }).then(edges)).toEqual([]);
    expect((await edges(speaker)).filter((edge) => edge.includes('contradicts'))).toEqual([]);
    // A note stated as a clause is compared, until its subject holds more statements than one fact would.
    const turns: string[] = [];
    for (const hour of ['8', '9', '10', '11', '12', '13']) {
      turns.push(await add({ content: `The night shift starts at ${hour}:00` }));
    }
    expect((await edges(turns[4] ?? '')).filter((edge) => edge.startsWith(`${turns[4]} contradicts`))).toHaveLength(4);
    expect((await edges(turns[5] ?? '')).filter((edge) => edge.startsWith(`${turns[5]} contradicts`))).toEqual([]);
  });

  it('re-extracts on edit: old links and symmetric edges are dropped, relations others name are kept', async () => {
    const base = await add({ content: 'Invoices are emailed nightly by the billing cron', tags: ['invoicing'] });
    const dependent = await add({ content: 'Dunning waits for invoices', metadata: { dependsOn: base } });
    const twin = await add({ content: 'The invoices are emailed nightly by the billing cron' });
    const [twinEdge] = (await edges(twin)).filter((edge) => edge.includes('similar_to'));
    expect(twinEdge?.startsWith(`${twin} similar_to ${base} `)).toBe(true);
    expect(Number(twinEdge?.split(' ').at(-1))).toBeGreaterThanOrEqual(COSINE_SIMILARITY_THRESHOLD);
    expect((await edges(base)).sort()).toEqual([`${dependent} depends_on ${base} 1`, twinEdge].sort());
    await server.post('/memories/edit', {
      id: base,
      content: 'Receipts are printed at the front desk',
      tags: ['front-desk'],
    });
    await server.indexed();
    expect(await links(base)).toEqual(['has_topic topic:front-desk 1']);
    expect(await edges(base)).toEqual([`${dependent} depends_on ${base} 1`]);
    // No other memory is tagged invoicing, so the topic node went with the edit.
    expect(await database.get("SELECT id FROM graph_nodes WHERE id = 'topic:invoicing'")).toBeUndefined();
  });

  it('purges the graph of a memory when vacuum purges the memory', async () => {
    const doomed = await add({ content: 'Zanzibar Protocol notes', tags: ['zanzibar'], metadata: {} });
    const neighbour = await add({ content: 'Zanzibar Protocol notes, second copy', metadata: { dependsOn: doomed } });
    await server.post('/memories/forget', { id: doomed });
    await server.post('/memories/vacuum', {});
    expect(await links(doomed)).toEqual([]);
    expect(await edges(doomed)).toEqual([]);
    expect(await database.get('SELECT id FROM graph_nodes WHERE id = ?', [`memory:${doomed}`])).toBeUndefined();
    expect(await database.get("SELECT id FROM graph_nodes WHERE id = 'topic:zanzibar'")).toBeUndefined();
    expect(await database.get("SELECT id FROM graph_nodes WHERE id = 'entity:zanzibar protocol'")).toEqual({
      id: 'entity:zanzibar protocol',
    });
    expect(await links(neighbour)).toContain('mentions entity:zanzibar protocol 0.8');
  });

  it('records a failed sync with a code, keeps the memory, and reports schema_missing', async () => {
    const other = await createTestServer();
    const otherDatabase = await workspaceDatabase(other);
    await otherDatabase.run('DROP TABLE graph_memory_links');
    const response = await other.call('POST', '/memories/add', { content: 'Still stored without a graph' });
    expect(response.status).toBe(201);
    await other.indexed();
    const errors = await otherDatabase.all<{ code: string; memory_id: string }>(
      'SELECT code, memory_id FROM graph_errors',
    );
    expect(errors).toEqual([{ code: 'GRAPH_RELATIONSHIP_SYNC_FAILED', memory_id: response.body.data?.id }]);
    const status = (await other.call('GET', '/graph/status')).body.data;
    expect(status).toMatchObject({ health: 'schema_missing', enabled: false });
    expect(status?.tables.graph_memory_links).toBe(false);
    expect(status?.alarms.map((alarm: { code: string }) => alarm.code)).toEqual(['GRAPH_SCHEMA_MISSING']);
    await other.close();
  });
});
