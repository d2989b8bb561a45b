import type { ContextGetData } from '@memory-service/contract';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  computeSessionHints,
  estimateContextTokens,
  type LifecycleHints,
  NotFoundError,
  TOKEN_OVERHEADS,
} from '../src/index.js';
import { LIFECYCLE_HINT_KEYS } from '../src/lifecycle/lifecycle-hints.js';
import { API_URL, createTestClient, errorEnvelope, successEnvelope } from './helpers.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

describe('computeSessionHints', () => {
  const table: Array<{ name: string; hints: LifecycleHints; tokens?: number; expected: string | null }> = [
    { name: 'no hints', hints: {}, expected: null },
    { name: 'tokens over the budget', hints: { budgetTokens: 100 }, tokens: 101, expected: 'count' },
    { name: 'tokens at the budget', hints: { budgetTokens: 100 }, tokens: 100, expected: null },
    { name: 'turns over the turn budget', hints: { turnCount: 21, turnBudget: 20 }, expected: 'count' },
    { name: 'turns at the turn budget', hints: { turnCount: 20, turnBudget: 20 }, expected: null },
    { name: 'turns without a turn budget', hints: { turnCount: 500 }, expected: null },
    {
      name: 'inactivity at the threshold',
      hints: { lastActivityAt: minutesAgo(30), inactivityThresholdMinutes: 30 },
      expected: 'time',
    },
    {
      name: 'inactivity under the threshold',
      hints: { lastActivityAt: minutesAgo(29), inactivityThresholdMinutes: 30 },
      expected: null,
    },
    {
      name: 'last activity as a Date or epoch milliseconds',
      hints: { lastActivityAt: NOW - 45 * 60_000, inactivityThresholdMinutes: 30 },
      expected: 'time',
    },
    { name: 'inactivity without a threshold', hints: { lastActivityAt: minutesAgo(999) }, expected: null },
    {
      name: 'unreadable last activity',
      hints: { lastActivityAt: 'yesterday', inactivityThresholdMinutes: 1 },
      expected: null,
    },
    { name: 'task completed', hints: { taskCompleted: true }, expected: 'semantic' },
    { name: 'task not completed', hints: { taskCompleted: false }, expected: null },
    {
      name: 'count wins over time and semantic',
      hints: {
        turnCount: 9,
        turnBudget: 8,
        lastActivityAt: minutesAgo(60),
        inactivityThresholdMinutes: 5,
        taskCompleted: true,
      },
      expected: 'count',
    },
    {
      name: 'time wins over semantic',
      hints: { lastActivityAt: new Date(NOW - 60 * 60_000), inactivityThresholdMinutes: 5, taskCompleted: true },
      expected: 'time',
    },
  ];

  it.each(table)('$name -> $expected', ({ hints, tokens = 0, expected }) => {
    const session = computeSessionHints(hints, tokens, NOW);
    expect(session.triggerHint).toBe(expected);
    expect(session.compactionRequired).toBe(expected !== null);
    expect(session.reason === null).toBe(expected === null);
  });

  it('explains the trigger', () => {
    expect(computeSessionHints({ budgetTokens: 10 }, 50, NOW).reason).toBe(
      'estimated context of 50 tokens exceeds the budget of 10',
    );
    expect(computeSessionHints({ lastActivityAt: minutesAgo(45), inactivityThresholdMinutes: 30 }, 0, NOW).reason).toBe(
      'inactive for 45 minutes (threshold 30)',
    );
  });
});

function memory(id: string, content: string, tags: string[] = []) {
  return {
    id,
    content,
    type: 'fact',
    layer: 'long_term',
    tags,
    paths: [],
    category: null,
    metadata: {},
    userId: null,
    projectId: null,
    embeddingModel: null,
    supersededBy: null,
    createdAt: '2026-11-21T00:00:00Z',
    updatedAt: '2026-11-21T00:00:00Z',
    score: 1,
    source: 'lexical',
  } as const;
}

describe('estimateContextTokens', () => {
  it('counts characters / 4 plus per-item overheads, each memory once', () => {
    const rule = memory('r1', 'a'.repeat(40));
    const fact = memory('m1', 'b'.repeat(18), ['ops']);
    const context = {
      rules: [rule],
      memories: [fact, fact],
      skillFiles: [{ path: 'x.md', content: 'c'.repeat(8) }],
      conflicts: [{ explanation: 'e'.repeat(4), suggestion: 's'.repeat(4) }],
    } as unknown as Partial<ContextGetData>;
    const expected =
      TOKEN_OVERHEADS.context +
      (TOKEN_OVERHEADS.memory + 10) +
      (TOKEN_OVERHEADS.memory + 5 + 1) +
      (TOKEN_OVERHEADS.skillFile + 1 + 2) +
      (TOKEN_OVERHEADS.conflict + 1 + 1);
    expect(estimateContextTokens(context)).toBe(expected);
    expect(estimateContextTokens({})).toBe(TOKEN_OVERHEADS.context);
  });
});

const contextData = { mode: 'all', query: 'q', rules: [], memories: [memory('m1', 'x'.repeat(400))], skillFiles: [] };
const snapshot = {
  id: 'snap-1',
  sessionId: 's1',
  slug: 'fix-the-build',
  sourceTrigger: 'end',
  transcriptMd: '# Fix the build',
  messageCount: 3,
  summary: 'Fixed it',
  createdAt: '2026-11-21T00:00:00Z',
};
const bodies: unknown[] = [];
const server = setupServer(
  http.post(`${API_URL}/context/get`, async ({ request }) => {
    bodies.push(await request.json());
    return HttpResponse.json(successEnvelope(contextData));
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  bodies.length = 0;
});
afterAll(() => server.close());

describe('context.get with lifecycle hints', () => {
  it('never sends a hint and adds the session verdict', async () => {
    const result = await createTestClient().context.get({
      query: 'q',
      sessionId: 's1',
      budgetTokens: 50,
      turnCount: 3,
      turnBudget: 10,
      lastActivityAt: new Date().toISOString(),
      inactivityThresholdMinutes: 30,
      taskCompleted: false,
      includeSessionSummary: false,
    });
    expect(bodies).toEqual([{ query: 'q' }]);
    for (const key of LIFECYCLE_HINT_KEYS) expect(bodies[0]).not.toHaveProperty(key);
    expect(result.session).toEqual({
      compactionRequired: true,
      triggerHint: 'count',
      reason: expect.stringContaining('exceeds the budget of 50'),
    });
    expect(result).not.toHaveProperty('sessionSummary');
    expect(result.memories).toHaveLength(1);
  });

  it('reports no compaction without hints', async () => {
    const result = await createTestClient().context.get();
    expect(result.session).toEqual({ compactionRequired: false, triggerHint: null, reason: null });
  });

  it('adds the latest snapshot as sessionSummary when asked', async () => {
    let snapshotQuery: Record<string, string> = {};
    server.use(
      http.get(`${API_URL}/sessions/s1/snapshot`, ({ request }) => {
        snapshotQuery = Object.fromEntries(new URL(request.url).searchParams);
        return HttpResponse.json(successEnvelope({ sessionId: 's1', message: 'ok', snapshot }));
      }),
    );
    const client = createTestClient({ scope: { tenantId: 'acme' } });
    const result = await client.context.get({ sessionId: 's1', includeSessionSummary: true, scope: { userId: 'u1' } });
    expect(result.sessionSummary).toEqual(snapshot);
    expect(snapshotQuery).toEqual({ tenantId: 'acme', userId: 'u1' });
    expect(bodies).toEqual([{ scope: { tenantId: 'acme', userId: 'u1' } }]);
  });

  it.each([['SESSION_SNAPSHOT_NOT_FOUND'], ['SESSION_NOT_FOUND']])(
    'gives sessionSummary null when the server answers %s',
    async (code) => {
      server.use(
        http.get(`${API_URL}/sessions/s1/snapshot`, () =>
          HttpResponse.json(errorEnvelope(code, 404, 'not_found_error'), { status: 404 }),
        ),
      );
      const result = await createTestClient().context.get({ sessionId: 's1', includeSessionSummary: true });
      expect(result.sessionSummary).toBeNull();
    },
  );

  it('gives sessionSummary null without a sessionId, and passes other failures on', async () => {
    const withoutSession = await createTestClient().context.get({ includeSessionSummary: true });
    expect(withoutSession.sessionSummary).toBeNull();
    server.use(
      http.get(`${API_URL}/sessions/s1/snapshot`, () =>
        HttpResponse.json(errorEnvelope('TENANT_DATABASE_NOT_CONFIGURED', 404, 'not_found_error'), { status: 404 }),
      ),
    );
    await expect(
      createTestClient().context.get({ sessionId: 's1', includeSessionSummary: true }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
