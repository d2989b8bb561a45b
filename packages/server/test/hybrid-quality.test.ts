import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EMBEDDING_MODEL } from '../src/embedding-models/default-model.js';
import { createTestServer, type TestServer } from './harness.js';

/** Each memory and a paraphrased question about it that shares (almost) no word with it. */
const PARAPHRASES = [
  ['Maria adopted a golden retriever puppy last spring', 'does she have a dog?'],
  ['The CI pipeline fails when the disk of the runner is full', 'why do builds break on storage problems?'],
  ['Prefers replies written in French', 'which language should answers use?'],
  ['The invoice service is written in Go', 'what programming language is billing built with?'],
  ['Grandmother lives in Lisbon', 'where does the family elder reside?'],
  ['Our team ships releases every second Thursday', 'how often do we deploy new versions?'],
] as const;
const DISTRACTORS = [
  'The office plant needs water on Mondays',
  'Parking passes renew in January',
  'Lunch is at noon on Fridays',
  'The wifi password changes monthly',
  'Quarterly taxes are due in April',
  'The coffee machine is on the second floor',
];

let server: TestServer;
const targets: string[] = [];

beforeAll(async () => {
  // The offline default model: the paraphrase property is the reason it is the default.
  server = await createTestServer({ embeddingModel: DEFAULT_EMBEDDING_MODEL });
  for (const [content] of PARAPHRASES)
    targets.push((await server.post<{ id: string }>('/memories/add', { content })).id);
  for (const content of DISTRACTORS) await server.post('/memories/add', { content });
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

async function foundInTop3(strategy: 'lexical' | 'hybrid'): Promise<number> {
  let found = 0;
  for (const [index, [, query]] of PARAPHRASES.entries()) {
    const result = await server.post<{ memories: Array<{ id: string }> }>('/memories/search', {
      query,
      strategy,
      limit: 3,
    });
    if (result.memories.some((memory) => memory.id === targets[index])) found += 1;
  }
  return found;
}

describe('retrieval quality on paraphrased questions', () => {
  it('hybrid finds the memory a paraphrase is about where lexical retrieval does not', async () => {
    const lexical = await foundInTop3('lexical');
    const hybrid = await foundInTop3('hybrid');
    expect(lexical).toBeLessThanOrEqual(1);
    expect(hybrid).toBeGreaterThanOrEqual(5);
    expect(hybrid).toBeGreaterThan(lexical);
  });
});
