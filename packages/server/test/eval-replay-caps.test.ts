import { LIMITS } from '@memory-service/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeText, scoreRetention } from '../src/evaluation/eval-scoring.js';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

const REPLAY = '/management/memory/eval/replay';

/** `count` distinct short facts. */
function facts(count: number, prefix = 'fact'): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index}`);
}

/** `text` repeated to exactly `length` characters. */
function filled(text: string, length: number): string {
  return text.repeat(Math.ceil(length / text.length)).slice(0, length);
}

describe('eval replay caps over HTTP', () => {
  it('refuses the request that used to block the server for 90 s, naming the fields over their caps', async () => {
    // 5 cases of 1,000 required facts each, a 200,000-character summary in the first: under the 1 MiB body cap.
    const scenarios = Array.from({ length: 5 }, (_, index) => ({
      id: `case-${index}`,
      extraction: { expected: [], observed: [] },
      compaction: { requiredFacts: facts(1000), summary: filled('the deploy runs ', index === 0 ? 200_000 : 190_000) },
    }));
    const body = JSON.stringify({ scenarios });
    expect(Buffer.byteLength(body)).toBeLessThan(LIMITS.requestBodyBytes);
    const response = await server.call('POST', REPLAY, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { field: 'scenarios.0.compaction.requiredFacts' },
    });
    const issues: Array<{ path: string }> = response.body.error?.details?.issues ?? [];
    expect(issues.map((issue) => issue.path)).toContain('scenarios.0.compaction.summary');
  });

  it('refuses a summary one character over its cap', async () => {
    const response = await server.call('POST', REPLAY, {
      scenarios: [
        {
          id: 'long',
          extraction: { expected: [], observed: [] },
          compaction: { requiredFacts: ['deploy'], summary: filled('deploy ', LIMITS.evalSummary.max + 1) },
        },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.error?.details?.field).toBe('scenarios.0.compaction.summary');
  });

  it('scores the largest accepted request: 100 cases, 50,000-character summaries, 500 facts a list', async () => {
    // Summaries of stop words only, and facts of stop words only, take the phrase path (the suffix automaton),
    // the one the old matching paid for with facts x summary length. As many full cases as the body cap allows.
    const summary = filled('it is ', LIMITS.evalSummary.max);
    const kept = Array.from({ length: 250 }, (_, index) => filled('it is ', 5 + (index % 4) * 6).trim());
    const lost = Array.from({ length: 249 }, (_, index) => filled('is is ', 5 + (index % 4) * 6).trim());
    const longest = filled('it is ', LIMITS.evalFacts.itemMax);
    const heavy = (index: number) => ({
      id: `heavy-${index}`,
      extraction: { expected: facts(500), observed: [...facts(400), ...facts(100, 'other')] },
      compaction: { requiredFacts: [...kept, ...lost, longest], summary },
      trigger: { expected: 'count', observed: 'count' },
    });
    const light = (index: number) => ({
      id: filled(`light-${index}-`, LIMITS.evalScenarioId.max),
      extraction: { expected: ['uses pnpm'], observed: ['Uses pnpm.'] },
    });
    const heavyCount = 14;
    const scenarios = Array.from({ length: LIMITS.evalScenarios.max }, (_, index) =>
      index < heavyCount ? heavy(index) : light(index),
    );
    const body = JSON.stringify({ scenarios });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMITS.requestBodyBytes);
    expect(Buffer.byteLength(body)).toBeGreaterThan(0.9 * LIMITS.requestBodyBytes);
    expect(longest).toHaveLength(LIMITS.evalFacts.itemMax);

    const response = await server.call('POST', REPLAY, body);
    expect(response.status).toBe(200);
    const data = response.body.data as Record<string, any>;
    expect(data.summary.cases).toBe(100);
    expect(data.scenarios[0]).toMatchObject({
      extraction: { truePositives: 400, falsePositives: 100, falseNegatives: 100 },
      compaction: { retained: 251, required: 500, retention: 0.502 },
    });
    expect(data.scenarios[0].compaction.missing).toEqual(lost);
    expect(data.scenarios[99]).toMatchObject({ status: 'pass', compaction: null });
  });
});

/** The matching as it was (quadratic): the oracle the linear matching must agree with. */
function retainedBefore(fact: string, summary: string): boolean {
  const word = /[\p{L}\p{N}]+/gu;
  // The stop words of the alphabet below (all of them are in the scorer's list).
  const stopWords = new Set(['a', 'the', 'is', 'it', 'do']);
  const normalizedSummary = normalizeText(summary);
  const summaryWords = new Set(normalizedSummary.match(word) ?? []);
  const normalized = normalizeText(fact);
  const isWordCharacter = (character: string | undefined) => character !== undefined && /[\p{L}\p{N}]/u.test(character);
  for (let at = normalizedSummary.indexOf(normalized); at !== -1; at = normalizedSummary.indexOf(normalized, at + 1)) {
    if (!isWordCharacter(normalizedSummary[at - 1]) && !isWordCharacter(normalizedSummary[at + normalized.length])) {
      return true;
    }
  }
  const contentWords = (normalized.match(word) ?? []).filter((each) => !stopWords.has(each));
  return contentWords.length > 0 && contentWords.every((each) => summaryWords.has(each));
}

describe('linear matching keeps the scores of the quadratic one', () => {
  // A small alphabet of stop words, content words and punctuation, so phrases, boundaries and near-misses are common.
  const piece = fc.constantFrom('a', 'the', 'is', 'it', 'do', 'cat', 'cats', 'x1', ' ', ' ', ', ', '(', ')', '-', '.');
  const text = fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join(''));

  it('retains the same facts for any summary', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), text, (requiredFacts, summary) => {
        const expected = requiredFacts.filter((fact) => normalizeText(fact) !== '' && !retainedBefore(fact, summary));
        expect(scoreRetention(requiredFacts, summary).missing).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
