import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

interface Served {
  memories: Array<{ content: string; score: number }>;
}

/** Notes about other things, so every query has neighbours to beat (and words like "use", "team", "we" are common). */
const BACKGROUND = [
  'We use Vitest for unit tests and Playwright for the browser tests.',
  'The team meets on Mondays to plan the sprint.',
  'We keep the design tokens in a shared package.',
  'Deploys go out on Wednesdays after the standup.',
  'The billing service retries webhooks three times.',
  'Her career started in finance before she moved to product.',
  'Next summer we want to go camping by the lake.',
];

describe('lexical search: short, rare and other-spelled words', () => {
  let server: TestServer;
  const search = (query: string, strategy: 'lexical' | 'hybrid' = 'lexical') =>
    server.post<Served>('/memories/search', { query, strategy, limit: 3 });
  const first = async (query: string) => (await search(query)).memories[0]?.content;

  beforeAll(async () => {
    server = await createTestServer();
    for (const content of [
      ...BACKGROUND,
      'We write the backend in Go.',
      'Production runs on Kubernetes, three nodes per region.',
      'The dashboard is plain JavaScript, no framework.',
      'Our primary database is PostgreSQL 16.',
      'The new UI ships behind a feature flag.',
      'The user interface needs a dark mode.',
      'The command-line tool is written in Golang.',
      'The IT team replaces laptops every three years.',
      'The platform team is small.',
      'The landing page is owned by the front-end guild.',
      'The worker is a Node.js process.',
      'Our roadtrip through Portugal took two weeks.',
      'We take care of the plants on Fridays.',
    ])
      await server.post('/memories/add', { content });
  });
  afterAll(async () => {
    await server.close();
  });

  it('finds a memory under another name of the same thing (the alias table)', async () => {
    const golang = (await search('Which language is golang?')).memories.slice(0, 2).map((memory) => memory.content);
    expect(golang).toContain('We write the backend in Go.');
    expect(await first('how many k8s nodes')).toBe('Production runs on Kubernetes, three nodes per region.');
    expect(await first('is the dashboard JS?')).toBe('The dashboard is plain JavaScript, no framework.');
    expect(await first('postgres version')).toBe('Our primary database is PostgreSQL 16.');
  });

  it('keeps a short word that is the query’s only content word, and finds it under its other names', async () => {
    const top = async (query: string) => (await search(query)).memories.slice(0, 2).map((memory) => memory.content);
    expect((await top('Is it Go?')).sort()).toEqual([
      'The command-line tool is written in Golang.',
      'We write the backend in Go.',
    ]);
    expect((await top('and the UI?')).sort()).toEqual([
      'The new UI ships behind a feature flag.',
      'The user interface needs a dark mode.',
    ]);
  });

  it('reads a stopword written in capitals as the acronym it is', async () => {
    expect(await first('Who is on the IT team?')).toBe('The IT team replaces laptops every three years.');
  });

  it('finds a word the memories write as two, or two words they write as one', async () => {
    expect(await first('who owns the frontend')).toBe('The landing page is owned by the front-end guild.');
    expect(await first('nodejs')).toBe('The worker is a Node.js process.');
    expect(await first('how long was the road trip')).toBe('Our roadtrip through Portugal took two weeks.');
  });

  it('widens a word to its prefix only when nothing else matches, and never a word that matches', async () => {
    expect(await first('kubern')).toBe('Production runs on Kubernetes, three nodes per region.');
    const care = (await search('who takes care')).memories.map((memory) => memory.content);
    expect(care[0]).toBe('We take care of the plants on Fridays.');
    expect(care).not.toContain('Her career started in finance before she moved to product.');
  });

  it('scores a memory found through another name above 0, like any match', async () => {
    const served = await search('k8s');
    expect(served.memories[0]?.score).toBeGreaterThan(0.5);
  });
});
