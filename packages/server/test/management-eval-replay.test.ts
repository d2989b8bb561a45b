import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeText, scoreExtraction, scoreRetention } from '../src/evaluation/eval-scoring.js';
import { ADMIN_TOKEN, createTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Four golden cases; every score below is worked out by hand in the comments. */
const scenarios = [
  {
    // Extraction: both match after normalisation -> tp 2, fp 0, fn 0: P = R = F1 = 1.
    // Compaction: both facts appear as phrases in the summary -> 2/2. Trigger matches. -> pass.
    id: 'perfect',
    extraction: { expected: ['Uses pnpm.', 'Deploys on Fridays'], observed: ['uses   PNPM', 'deploys on fridays!'] },
    compaction: {
      requiredFacts: ['The API uses Hono', 'tests run on Vitest'],
      summary: 'Summary: the API uses Hono; tests run on Vitest.',
    },
    trigger: { expected: 'count', observed: 'count' },
  },
  {
    // Extraction: expected {a cat, a dog x2, fish}, observed {a dog, a cat, bird} -> tp 2, fp 1, fn 2:
    // P = 2/3 = 0.6667, R = 2/4 = 0.5, F1 = 2PR/(P+R) = (2/3)/(7/6) = 4/7 = 0.5714 (fail: < 0.8 - 0.1).
    // Compaction: 'alice prefers tea' -> content words alice, prefers, tea all in the summary: kept;
    // 'the deadline is friday' -> deadline, friday: kept; 'budget is 5000 eur' -> budget missing: lost -> 2/3.
    // Trigger: time vs none: mismatch.
    id: 'partial',
    extraction: { expected: ['a cat', 'a dog', 'a dog', 'fish'], observed: ['A dog', 'a cat', 'bird'] },
    compaction: {
      requiredFacts: ['Alice prefers tea', 'the deadline is Friday', 'budget is 5000 EUR'],
      summary: 'Deadline: Friday. Alice drinks coffee, prefers tea over it.',
    },
    trigger: { expected: 'time', observed: 'none' },
  },
  {
    // Extraction: tp 3, fp 1, fn 1 -> P = R = F1 = 0.75: within 0.1 under 0.8 -> warn.
    id: 'near-miss',
    extraction: { expected: ['a', 'b', 'c', 'd'], observed: ['a', 'b', 'c', 'x'] },
  },
  {
    // Nothing expected, nothing observed -> P = R = F1 = 1; trigger matches -> pass.
    id: 'empty',
    extraction: { expected: [], observed: [] },
    trigger: { expected: 'semantic', observed: 'semantic' },
  },
];

describe('management/memory/eval/replay', () => {
  it('scores the golden cases with the default criteria', async () => {
    const response = await server.call('POST', '/management/memory/eval/replay', { tenantId: 'evals', scenarios });
    expect(response.status).toBe(200);
    const data = response.body.data as Record<string, any>;
    expect(data.scope).toEqual({ tenantId: 'evals', userId: null, projectId: null });
    const [perfect, partial, nearMiss, empty] = data.scenarios;
    expect(perfect).toEqual({
      id: 'perfect',
      status: 'pass',
      extraction: { precision: 1, recall: 1, f1: 1, truePositives: 2, falsePositives: 0, falseNegatives: 0 },
      compaction: { retention: 1, retained: 2, required: 2, missing: [] },
      trigger: { expected: 'count', observed: 'count', match: true },
      reasons: [],
    });
    expect(partial).toEqual({
      id: 'partial',
      status: 'fail',
      extraction: {
        precision: 0.6667,
        recall: 0.5,
        f1: 0.5714,
        truePositives: 2,
        falsePositives: 1,
        falseNegatives: 2,
      },
      compaction: { retention: 0.6667, retained: 2, required: 3, missing: ['budget is 5000 EUR'] },
      trigger: { expected: 'time', observed: 'none', match: false },
      reasons: [
        'extractionF1 0.5714 < 0.8 (fail)',
        'compactionRetention 0.6667 < 0.9 (fail): missing 1 fact(s)',
        'triggerAccuracy 0 < 0.9 (fail): expected time, observed none',
      ],
    });
    expect(nearMiss).toMatchObject({
      status: 'warn',
      extraction: { precision: 0.75, recall: 0.75, f1: 0.75 },
      compaction: null,
      trigger: null,
      reasons: ['extractionF1 0.75 < 0.8 (warn)'],
    });
    expect(empty).toMatchObject({ status: 'pass', extraction: { precision: 1, recall: 1, f1: 1 } });
    // Micro-averages: tp 7, fp 2, fn 3 -> P = 7/9 = 0.7778, R = 7/10 = 0.7, F1 = 14/19 = 0.7368.
    // Retention (4 kept of 5) = 0.8; trigger 2 of 3 = 0.6667; 2 of 4 cases pass = 0.5 < 0.7 -> fail.
    expect(data.summary).toEqual({
      cases: 4,
      passed: 2,
      warned: 1,
      failed: 1,
      extractionF1: 0.7368,
      extractionPrecision: 0.7778,
      extractionRecall: 0.7,
      compactionRetention: 0.8,
      triggerAccuracy: 0.6667,
      casePassRatio: 0.5,
      status: 'fail',
    });
  });

  it('grades against the given passCriteria', async () => {
    const passCriteria = { extractionF1: 0.5, compactionRetention: 0.6, triggerAccuracy: 0, casePassRatio: 0.5 };
    const response = await server.call(
      'POST',
      '/management/memory/eval/replay',
      { passCriteria, scenarios },
      { key: ADMIN_TOKEN },
    );
    const data = response.body.data as Record<string, any>;
    expect(data.scenarios.map((scenario: { status: string }) => scenario.status)).toEqual([
      'pass',
      'pass',
      'pass',
      'pass',
    ]);
    expect(data.summary).toMatchObject({ passed: 4, casePassRatio: 1, status: 'pass' });
    // casePassRatio 0.5 of 0.55 warns (within 0.1); everything else passes.
    const warned = await server.call('POST', '/management/memory/eval/replay', {
      passCriteria: { extractionF1: 0.8, casePassRatio: 0.55, compactionRetention: 0.6, triggerAccuracy: 0 },
      scenarios: [scenarios[0], scenarios[2]],
    });
    expect(warned.body.data?.summary).toMatchObject({
      passed: 1,
      warned: 1,
      casePassRatio: 0.5,
      extractionF1: 0.8333,
      status: 'warn',
    });
  });

  it('refuses invalid input naming the field', async () => {
    const tooHigh = await server.call('POST', '/management/memory/eval/replay', {
      passCriteria: { extractionF1: 1.5 },
      scenarios,
    });
    expect(tooHigh.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { field: 'passCriteria.extractionF1' },
    });
    const none = await server.call('POST', '/management/memory/eval/replay', { scenarios: [] });
    expect(none.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'scenarios' } });
    const badTrigger = await server.call('POST', '/management/memory/eval/replay', {
      scenarios: [
        { id: 'x', extraction: { expected: [], observed: [] }, trigger: { expected: 'soon', observed: 'none' } },
      ],
    });
    expect(badTrigger.body.error?.details?.field).toBe('scenarios.0.trigger.expected');
  });
});

describe('normalisation and matching rules', () => {
  it('applies NFKC, lower case, collapsed whitespace and stripped trailing punctuation', () => {
    expect(normalizeText('  Ｆｕｌｌ\u00a0Width   TEXT!?. ')).toBe('full width text');
    expect(normalizeText('ﬁle (v2)')).toBe('file (v2)');
    expect(normalizeText('...')).toBe('');
  });

  it('matches as multisets and ignores items that normalise to nothing', () => {
    expect(scoreExtraction(['x', 'x', ' '], ['X', 'x.', 'x'])).toMatchObject({
      truePositives: 2,
      falsePositives: 1,
      falseNegatives: 0,
    });
    expect(scoreExtraction(['x'], [])).toMatchObject({ precision: 0, recall: 0, f1: 0 });
  });

  it('keeps a fact only as a whole phrase or through all its content words', () => {
    expect(scoreRetention(['cat'], 'we concatenate files')).toMatchObject({ retained: 0, missing: ['cat'] });
    expect(scoreRetention(['does not use yarn'], 'the repo uses yarn')).toMatchObject({ retained: 0 });
    expect(scoreRetention(['does not use yarn'], 'yarn: we do not use it')).toMatchObject({ retained: 1 });
    expect(scoreRetention([], 'anything')).toEqual({ retention: 1, retained: 0, required: 0, missing: [] });
  });
});
