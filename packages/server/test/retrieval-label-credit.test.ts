import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RankedCandidate } from '../src/retrieval/candidate-filter.js';
import { fuseRankings } from '../src/retrieval/hybrid.js';
import { LABEL_WEIGHT, labelCredit, labelWords } from '../src/retrieval/label-credit.js';
import { createTestServer, type TestServer } from './harness.js';
import { rankedCandidate } from './ranked-candidate.js';

function candidate(seq: number, content: string): RankedCandidate {
  return rankedCandidate(seq, { content });
}

describe('memory labels', () => {
  it.each([
    ['Melanie: I painted a lake', ['melanie']],
    ['  User: prefers dark mode', ['user']],
    ['Dr. Lee: the scan is clear', ['dr', 'lee']],
    ["Anne-Marie O'Brien: see you", ['anne', 'marie', 'o', 'brien']],
    ['Decision: ship on Fridays', ['decision']],
  ])('reads the label of %j', (content, words) => {
    expect([...(labelWords(content) ?? [])]).toEqual(words);
  });

  it.each([
    'We met at 10:30 and talked',
    'https://example.com: the docs',
    'note: lower-case words are not a label',
    'Four Capitalised Words Here: too long for a label',
    'Melanie:no space after the colon',
    'Melanie painted a lake: blue',
  ])('finds no label in %j', (content) => {
    expect(labelWords(content)).toBeNull();
  });

  it('credits a memory whose label names a query term, not one that only mentions it', () => {
    const terms = ['melanie', 'think', 'adoption'];
    expect(labelCredit(candidate(1, 'Melanie: you will be an awesome mom'), terms)).toBe(LABEL_WEIGHT);
    expect(labelCredit(candidate(2, 'Caroline: Melanie thinks adoption is brave'), terms)).toBe(0);
    expect(labelCredit(candidate(3, 'Melanie thinks adoption is brave'), terms)).toBe(0);
    expect(labelCredit(candidate(1, 'Melanie: you will be an awesome mom'), [])).toBe(0);
    // Terms of four letters or more match as prefixes, as in the FTS query ("mel" is too short to).
    expect(labelCredit(candidate(4, 'Melanie: hi'), ['mela'])).toBe(LABEL_WEIGHT);
    expect(labelCredit(candidate(4, 'Melanie: hi'), ['mel'])).toBe(0);
  });

  it('reorders near ties in fusion, never lifts a memory from the bottom', () => {
    const now = new Date('2020-01-01T00:00:00.000Z');
    const terms = ['melanie', 'adoption'];
    const authored = candidate(2, 'Melanie: adoption takes courage');
    const mention = candidate(1, 'Caroline: Melanie said adoption takes courage');
    const near = fuseRankings([mention, authored], [], now, { terms }).map((entry) => entry.row.seq);
    expect(near).toEqual([2, 1]);
    expect(fuseRankings([mention, authored], [], now).map((entry) => entry.row.seq)).toEqual([1, 2]);
    const list = Array.from({ length: 40 }, (_, index) => candidate(index + 10, `Caroline: adoption note ${index}`));
    const far = fuseRankings([...list, authored], [], now, { terms }).map((entry) => entry.row.seq);
    expect(far.indexOf(2)).toBeGreaterThan(5);
  });
});

describe('label credit in hybrid retrieval', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
    // Two lines of a conversation with the same words; the later one (written second, ranked first otherwise by
    // BM25 as the shorter, more focused line) only reports what Dana thinks.
    for (const content of [
      'Dana: honestly the move to Berlin worries me a lot, the rent there is so high',
      'Sam: Dana thinks the move to Berlin is risky',
      'Sam: the weather in Lisbon was lovely this week',
      'Dana: I started a pottery class on Tuesdays',
    ])
      await server.post('/memories/add', { content });
    await server.indexed();
  });
  afterAll(async () => {
    await server.close();
  });

  const ranked = async (strategy: 'lexical' | 'hybrid') =>
    (
      await server.post<{ memories: Array<{ content: string }> }>('/memories/search', {
        query: 'What does Dana think about the move to Berlin?',
        strategy,
        limit: 2,
      })
    ).memories.map((memory) => memory.content.split(':')[0]);

  it('ranks what the named person said above what others said of them', async () => {
    expect(await ranked('lexical')).toEqual(['Sam', 'Dana']);
    expect(await ranked('hybrid')).toEqual(['Dana', 'Sam']);
  });
});
