import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordsOf } from '../src/retrieval/fts-query.js';
import { lexicalSearch } from '../src/retrieval/lexical.js';
import type { TenantDatabase } from '../src/tenancy/tenant-database.js';
import { importNotes, workspaceTenant } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

/** What the benchmark's long-conversation generator returns for one user (`bench/retrieval/long-corpus/generate.ts`). */
interface LongUser {
  messages: Array<{ key: string; content: string; occurredAt: string }>;
  questions: Array<{ kind: 'direct' | 'reworded' | 'rare'; question: string; evidence: string[] }>;
}

/**
 * The generator lives with the benchmark, outside this package's sources (its `rootDir`): loaded by URL, so the
 * package's type check does not pull the benchmark in.
 */
async function generatedUser(seed: number, user: number, messages: number): Promise<LongUser> {
  const url = new URL('../../../bench/retrieval/long-corpus/generate.ts', import.meta.url).href;
  const generator = (await import(url)) as { generateUser(seed: number, user: number, messages: number): LongUser };
  return generator.generateUser(seed, user, messages);
}

const SHARED = { tenantId: null, userId: null, projectId: null };

/**
 * One user's generated history of 1,000 long messages (median ~1,100 characters; the benchmark's second user of seed
 * 1, whose planted facts include a backend language named once among a thousand messages of similar chatter).
 */
describe('lexical search over 1,000 long messages of one user', () => {
  let server: TestServer;
  let tenant: TenantDatabase;
  let user: LongUser;
  const keyOf = new Map<number, string>();

  /** The keys of the top 10 of lexical search and of a plain FTS5 BM25 query (every word OR-ed) for a question. */
  async function topTen(question: string): Promise<{ lexical: string[]; plain: string[] }> {
    const result = await lexicalSearch(tenant, { query: question, scope: SHARED, limit: 10, recencyFallback: false });
    const plain = await tenant.database.all<{ rowid: number }>(
      'SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts) LIMIT 10',
      [[...wordsOf(question)].map((word) => `"${word}"`).join(' OR ')],
    );
    return {
      lexical: result.candidates.map((candidate) => keyOf.get(candidate.row.seq) ?? ''),
      plain: plain.map((row) => keyOf.get(Number(row.rowid)) ?? ''),
    };
  }

  beforeAll(async () => {
    user = await generatedUser(1, 1, 1_000);
    server = await createTestServer();
    tenant = await workspaceTenant(server);
    await importNotes(
      tenant.database,
      user.messages.map((message) => message.content),
      (index) => new Date(user.messages[index]?.occurredAt ?? 0),
    );
    const keys = new Map(user.messages.map((message) => [message.content, message.key]));
    const rows = await tenant.database.all<{ seq: number; content: string }>('SELECT seq, content FROM memories');
    for (const row of rows) keyOf.set(Number(row.seq), keys.get(row.content) ?? '');
  });
  afterAll(async () => {
    await server.close();
  });

  it('holds more than 1,000 memories (the large-index paths apply)', async () => {
    expect(await tenant.termCounts.documentCount(true)).toBeGreaterThanOrEqual(1_000);
  });

  it('finds the message a rare-word question is about in the top 10', async () => {
    const rare = user.questions.filter((item) => item.kind === 'rare');
    expect(rare.map((item) => item.question)).toContain('Where do we deploy the Scala backend?');
    for (const item of rare) expect((await topTen(item.question)).lexical, item.question).toContain(item.evidence[0]);
  });

  it('answers at least as many questions in the top 10 as plain FTS5 BM25', async () => {
    let lexical = 0;
    let plain = 0;
    for (const item of user.questions) {
      const found = await topTen(item.question);
      if (found.lexical.includes(item.evidence[0] ?? '')) lexical += 1;
      if (found.plain.includes(item.evidence[0] ?? '')) plain += 1;
    }
    expect(lexical).toBeGreaterThanOrEqual(plain);
  });
});
