import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexicalSearch } from '../src/retrieval/lexical.js';
import { MIN_MATCH_SCORE, semanticRelevance } from '../src/retrieval/relevance.js';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import type { Database } from '../src/store/database.js';
import { importNotes, setRolloutMode, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

type Served = { id: string; content: string; score: number; source: string };
type Search = { memories: Served[] };
type Bundle = { memories: Served[]; rules: Served[] };

let server: TestServer;
let database: Database;
const ids: Record<string, string> = {};

const search = (query: string, strategy: 'lexical' | 'hybrid', tenantId?: string) =>
  server.post<Search>('/memories/search', {
    query,
    strategy,
    ...(tenantId === undefined ? {} : { scope: { tenantId } }),
  });
const scoreOf = (memories: readonly Served[], id: string | undefined) =>
  memories.find((memory) => memory.id === id)?.score;
const inUnitRange = (memories: readonly Served[]) => memories.every((memory) => memory.score >= 0 && memory.score <= 1);

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  const add = async (name: string, body: Record<string, unknown>) => {
    ids[name] = (await server.post<{ id: string }>('/memories/add', body)).id;
  };
  await add('rule', { content: 'Answer in British English', type: 'rule' });
  await add('both', { content: 'Kayak trips leave from the pier at dawn', tags: ['outdoors'] });
  await add('kayak', { content: 'The kayak is stored in the garage', tags: ['outdoors'] });
  await add('pier', { content: 'The pier was repainted last spring' });
  await add('other', { content: 'Payments use Stripe with idempotency keys' });
  await server.post('/memories/add', { content: 'Quokkas live on Rottnest', scope: { tenantId: 'lonely' } });
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

describe('retrieval scores', () => {
  it('scores the only match of a lexical query above 0 (its BM25 alone rounds to 0)', async () => {
    // One memory in the tenant: FTS5 clamps the IDF of a term in more than half the memories to ~0, so BM25 ranked the
    // match at about -1e-6 and `score` was served as 0.
    const tenant = await server.services.resolver.resolve(DEFAULT_OWNER_ID, 'lonely', new Date());
    const scope = { tenantId: 'lonely', userId: null, projectId: null };
    const raw = await lexicalSearch(tenant, { query: 'quokkas', scope, limit: 10, recencyFallback: false });
    expect(Math.round((raw.candidates[0]?.score ?? 1) * 10_000)).toBe(0);
    const { memories } = await search('quokkas', 'lexical', 'lonely');
    expect(memories).toHaveLength(1);
    expect(memories[0]?.score).toBe(1);
    expect((await search('quokkas', 'hybrid', 'lonely')).memories[0]?.score).toBe(1);
  });

  it('never returns an unmatched memory from search, and never scores a match 0', async () => {
    expect((await search('zeppelin', 'lexical')).memories).toEqual([]);
    // "ayak" is no word of the index: the substring fallback finds the kayak memories, which match it all.
    const substring = (await search('ayak', 'lexical')).memories;
    expect(substring.map((memory) => memory.id).sort()).toEqual([ids.both, ids.kayak].sort());
    expect(substring.every((memory) => memory.score === 1)).toBe(true);
    for (const strategy of ['lexical', 'hybrid'] as const) {
      const { memories } = await search('kayak pier outdoors', strategy);
      expect(memories.length).toBeGreaterThan(0);
      expect(memories.every((memory) => memory.score >= MIN_MATCH_SCORE)).toBe(true);
    }
  });

  it('keeps lexical and hybrid scores in 0..1, a memory holding every query term at 1', async () => {
    const lexical = (await search('kayak pier', 'lexical')).memories;
    const hybrid = (await search('kayak pier', 'hybrid')).memories;
    expect(inUnitRange(lexical) && inUnitRange(hybrid)).toBe(true);
    expect(scoreOf(lexical, ids.both)).toBe(1);
    expect(scoreOf(hybrid, ids.both)).toBe(1);
  });

  it('scores a stronger match higher than a weaker one', async () => {
    const { memories } = await search('kayak dawn', 'lexical');
    const both = scoreOf(memories, ids.both) ?? 0;
    const kayak = scoreOf(memories, ids.kayak) ?? 0;
    expect(both).toBe(1);
    expect(kayak).toBeGreaterThan(0);
    // "dawn" is in one memory, "kayak" in two: covering the rarer term is most of the query.
    expect(kayak).toBeLessThan(0.5);
  });

  it('never scores a memory lower in hybrid than lexically', async () => {
    const lexical = (await search('kayak garage pier', 'lexical')).memories;
    const hybrid = (await search('kayak garage pier', 'hybrid')).memories;
    for (const memory of lexical) expect(scoreOf(hybrid, memory.id) ?? 1).toBeGreaterThanOrEqual(memory.score);
  });

  it('gives the same score in memories/search and context/get', async () => {
    for (const strategy of ['lexical', 'hybrid'] as const) {
      const found = (await search('kayak pier', strategy)).memories;
      const bundle = await server.post<Bundle>('/context/get', { query: 'kayak pier', strategy });
      expect(bundle.memories.map((memory) => [memory.id, memory.score])).toEqual(
        found.map((memory) => [memory.id, memory.score]),
      );
      expect(bundle.rules.map((rule) => rule.score)).toEqual([1]);
    }
  });

  it('scores the recency fallback of context/get 0: those memories match nothing', async () => {
    const bundle = await server.post<Bundle>('/context/get', { query: 'zeppelin', strategy: 'lexical' });
    expect(bundle.memories.length).toBeGreaterThan(0);
    expect(bundle.memories.every((memory) => memory.source === 'recency' && memory.score === 0)).toBe(true);
  });

  it('keeps graph-expanded scores in 0..1 and above 0', async () => {
    await setRolloutMode(server, database, 'canary');
    const bundle = await server.post<Bundle>('/context/get', {
      query: 'dawn',
      strategy: 'hybrid_graph',
      limit: 1,
      graphLimit: 4,
    });
    const expanded = bundle.memories.filter((memory) => memory.source === 'graph_expansion');
    expect(expanded.map((memory) => memory.id)).toContain(ids.kayak);
    expect(expanded.every((memory) => memory.score > 0 && memory.score <= 1)).toBe(true);
    expect(inUnitRange(bundle.memories)).toBe(true);
    await setRolloutMode(server, database, 'off');
  });
});

describe('retrieval scores on a large index', () => {
  let large: TestServer;
  const searchLarge = async (query: string) =>
    (await large.post<Search>('/memories/search', { query, strategy: 'lexical', limit: 50 })).memories;

  beforeAll(async () => {
    large = await createTestServer();
    // "gateway" in 2,240 memories (past RANKED_WINDOW: looked up memory by memory), "kaloren" in 2, "rollout" in 42.
    await importNotes(await workspaceDatabase(large), [
      ...Array.from({ length: 2_200 }, (_, index) => `Gateway latency report ${index}.`),
      ...Array.from({ length: 40 }, (_, index) => `Ada owns the gateway rollout, step ${index}.`),
      ...Array.from({ length: 300 }, (_, index) => `Weekly lunch note ${index}.`),
      'Kaloren rollout note one.',
      'Kaloren gateway rollout note two.',
    ]);
  });
  afterAll(async () => {
    await large.close();
  });

  it('weighs a rare term above a frequent one, and scores a one-term query 1 for every match', async () => {
    const memories = await searchLarge('kaloren gateway rollout');
    const score = (content: string) => memories.find((memory) => memory.content === content)?.score ?? 0;
    expect(inUnitRange(memories)).toBe(true);
    expect(score('Kaloren gateway rollout note two.')).toBe(1);
    expect(score('Kaloren rollout note one.')).toBeGreaterThan(score('Ada owns the gateway rollout, step 0.'));
    expect(score('Ada owns the gateway rollout, step 0.')).toBeGreaterThan(0);
    const gateway = await searchLarge('gateway');
    expect(gateway).toHaveLength(50);
    expect(gateway.every((memory) => memory.score === 1)).toBe(true);
  });
});

describe('semantic relevance', () => {
  it('maps cosine similarity to 0 at the model floor and 1 at identity, linearly', () => {
    expect(semanticRelevance(0.25, 0.25)).toBe(0);
    expect(semanticRelevance(0.1, 0.25)).toBe(0);
    expect(semanticRelevance(1, 0.25)).toBe(1);
    expect(semanticRelevance(0.625, 0.25)).toBeCloseTo(0.5, 12);
  });
});
