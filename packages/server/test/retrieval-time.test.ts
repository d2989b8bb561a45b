import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

// Issue 24, part 3 ("Time"): a query that names a time ("last week", "in March") ranks the on-topic memories of that
// time first, and narrows to them when there are enough; ordering words ("first", "latest") order the equally good
// answers by when they were said; "when did ..." prefers memories that say when. Queries without time rank as before.

type Loose = Record<string, any>;
type Strategy = 'lexical' | 'hybrid';

const DAY = 86_400_000;
const now = Date.now();
/** Monday 00:00 UTC of this week (the contract resolves weeks Monday-first, in UTC). */
const thisMonday = Math.floor(now / DAY) * DAY - ((new Date(now).getUTCDay() + 6) % 7) * DAY;
const lastYear = new Date(now).getUTCFullYear() - 1;
const iso = (time: number) => new Date(time).toISOString();
/** Noon on the Thursday of last week. */
const lastWeek = iso(thisMonday - 4 * DAY + 12 * 3_600_000);
/**
 * Earlier today (UTC), never before this Monday (so never in last week) nor before midnight (so never "yesterday", in
 * the first hour of a day too).
 */
const today = iso(Math.max(now - 3_600_000, Math.min(now, Math.floor(now / DAY) * DAY + 60_000)));

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Stores the memories in a fresh tenant (and waits for their vectors); returns its id and the memory ids by key. */
async function corpus(name: string, memories: Record<string, { content: string; occurredAt: string }>) {
  const tenantId = `time-${name}`;
  const ids: Record<string, string> = {};
  for (const [key, memory] of Object.entries(memories)) {
    const added = await server.post<{ id: string }>('/memories/add', { ...memory, scope: { tenantId } });
    ids[key] = added.id;
  }
  await server.indexed();
  return { tenantId, ids };
}

async function search(tenantId: string, query: string, strategy: Strategy, limit = 10) {
  return server.post<{ memories: Loose[]; trace: Loose }>('/memories/search', {
    query,
    strategy,
    limit,
    scope: { tenantId },
  });
}

/** The keys of the memories a search returns, in order. */
function keysOf(ids: Record<string, string>, memories: readonly Loose[]): string[] {
  const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]));
  return memories.map((memory) => keyOf.get(memory.id) ?? memory.id);
}

const strategies: Strategy[] = ['lexical', 'hybrid'];

describe('a query that names a time window', () => {
  // All three are about the billing deploys; without the window the long one of last week ranks last.
  const deploys = {
    old: {
      content: 'Billing deploys: we decided to ship the billing service on Tuesdays.',
      occurredAt: iso(now - 24 * DAY),
    },
    lastWeek: {
      content:
        'After a long call with finance and the support leads we decided that billing deploys move to Thursday mornings, once the invoices have gone out and the on-call engineer has signed off.',
      occurredAt: lastWeek,
    },
    today: { content: 'Billing deploys decided: billing deploys need two approvals.', occurredAt: today },
    noise: { content: 'Last week was a long week, and next week looks busy too.', occurredAt: lastWeek },
  };
  let tenantId: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    ({ tenantId, ids } = await corpus('window', deploys));
  });

  it.each(strategies)('%s: "last week" puts the on-topic memory of last week first', async (strategy) => {
    const found = await search(tenantId, 'What did we decide about billing deploys last week?', strategy);
    const order = keysOf(ids, found.memories);
    expect(order[0]).toBe('lastWeek');
    // The other on-topic memories follow: the window ranks, it does not empty the answer.
    expect(order).toEqual(expect.arrayContaining(['old', 'today']));
    expect(found.trace.time).toMatchObject({
      expressions: ['last week'],
      windows: [{ text: 'last week', from: iso(thisMonday - 7 * DAY), to: iso(thisMonday), everyYear: false }],
      inWindow: 1,
      narrowed: false,
    });
  });

  it.each(strategies)('%s: without the time words, the same memories rank as the words say', async (strategy) => {
    const found = await search(tenantId, 'What did we decide about billing deploys?', strategy);
    const order = keysOf(ids, found.memories);
    expect(order.indexOf('lastWeek')).toBeGreaterThan(0);
    expect(found.trace.time).toBeUndefined();
  });

  it('never searches the time words themselves', async () => {
    const found = await search(tenantId, 'billing deploys last week', 'lexical');
    expect(keysOf(ids, found.memories)).not.toContain('noise');
    expect(keysOf(ids, found.memories)[0]).toBe('lastWeek');
  });

  it.each(strategies)('%s: a window with nothing on topic in it leaves the ranking as it was', async (strategy) => {
    const plain = keysOf(ids, (await search(tenantId, 'What did we decide about billing deploys?', strategy)).memories);
    for (const query of [
      'What did we decide about billing deploys in 1999?',
      'What did we decide about billing deploys yesterday?',
    ]) {
      const found = await search(tenantId, query, strategy);
      expect(keysOf(ids, found.memories)).toEqual(plain);
      expect(found.trace.time).toMatchObject({ inWindow: 0, narrowed: false });
    }
  });

  it('a query that is only a time lists the memories of that time first (context/get)', async () => {
    const bundle = await server.post<Loose>('/context/get', {
      query: 'last week?',
      strategy: 'lexical',
      includeRules: false,
      includeSkillFiles: false,
      scope: { tenantId },
    });
    expect(keysOf(ids, bundle.memories).slice(0, 2).sort()).toEqual(['lastWeek', 'noise']);
    expect(bundle.trace.time).toMatchObject({ inWindow: 2 });
  });

  it('context/get serves the memory of the window first and says what the time did', async () => {
    const bundle = await server.post<Loose>('/context/get', {
      query: 'what did we decide about billing deploys last week',
      strategy: 'lexical',
      includeRules: false,
      includeSkillFiles: false,
      scope: { tenantId },
    });
    expect(keysOf(ids, bundle.memories)[0]).toBe('lastWeek');
    expect(bundle.trace.time).toMatchObject({ expressions: ['last week'], inWindow: 1 });
  });
});

describe('a query that names a month', () => {
  const offsite = {
    march: {
      content: 'Offsite plan: we booked the lake house venue for the whole team, with the boat trip on the second day.',
      occurredAt: `${lastYear}-03-14T10:00:00.000Z`,
    },
    july: {
      content: 'Offsite plan: the offsite plan is final, offsite in the city.',
      occurredAt: `${lastYear}-07-02T10:00:00.000Z`,
    },
    january: { content: 'Offsite plan: offsite budget approved.', occurredAt: `${lastYear}-01-20T10:00:00.000Z` },
  };
  let tenantId: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    ({ tenantId, ids } = await corpus('month', offsite));
  });

  it.each(strategies)(
    '%s: "in March" puts the March memory first (a month without a year: any year)',
    async (strategy) => {
      const found = await search(tenantId, 'What was the offsite plan in March?', strategy);
      expect(keysOf(ids, found.memories)[0]).toBe('march');
      expect(found.trace.time.windows).toEqual([expect.objectContaining({ text: 'in March', everyYear: true })]);
      const plain = await search(tenantId, 'What was the offsite plan?', strategy);
      expect(keysOf(ids, plain.memories)[0]).not.toBe('march');
    },
  );

  it.each(strategies)('%s: "in March <year>" and "before April <year>" name the same memory', async (strategy) => {
    for (const query of [
      `offsite plan in March ${lastYear}`,
      `offsite plan between March 1 and March 31 ${lastYear}`,
    ]) {
      expect(keysOf(ids, (await search(tenantId, query, strategy)).memories)[0]).toBe('march');
    }
    const before = keysOf(ids, (await search(tenantId, `offsite plan before April ${lastYear}`, strategy)).memories);
    expect(before.slice(0, 2).sort()).toEqual(['january', 'march']);
  });
});

describe('narrowing: the window filters only when enough on-topic memories are inside it', () => {
  const incidents: Record<string, { content: string; occurredAt: string }> = {
    before1: { content: 'Incident review: the database failover incident.', occurredAt: iso(now - 40 * DAY) },
    before2: { content: 'Incident review: database incident, failover.', occurredAt: iso(now - 45 * DAY) },
  };
  for (const index of [1, 2, 3])
    incidents[`week${index}`] = {
      content: `Incident review number ${index}: we walked through the database failover incident in detail with the platform team and wrote down the follow-ups.`,
      occurredAt: iso(thisMonday - (7 - index) * DAY),
    };
  let tenantId: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    ({ tenantId, ids } = await corpus('narrow', incidents));
  });

  it.each(strategies)('%s: enough inside: the answer is all from the window', async (strategy) => {
    const found = await search(tenantId, 'database failover incident review last week', strategy, 2);
    expect(keysOf(ids, found.memories).every((key) => key.startsWith('week'))).toBe(true);
    expect(found.trace.time).toMatchObject({ inWindow: 3, narrowed: true });
  });

  it.each(strategies)('%s: fewer inside than asked for: the best of other times follow', async (strategy) => {
    const found = await search(tenantId, 'database failover incident review last week', strategy, 5);
    const order = keysOf(ids, found.memories);
    expect(order.slice(0, 3).every((key) => key.startsWith('week'))).toBe(true);
    expect(order.slice(3).sort()).toEqual(['before1', 'before2']);
    expect(found.trace.time.narrowed).toBe(false);
  });
});

describe('ordering words', () => {
  // Equally on topic; the shortest ranks first on words alone, the oldest is the longest.
  const upgrade = {
    oldest: {
      content:
        'Kubernetes upgrade: we agreed to wait for the managed control plane before we upgrade anything in production.',
      occurredAt: iso(now - 60 * DAY),
    },
    middle: { content: 'Kubernetes upgrade: staging first.', occurredAt: iso(now - 30 * DAY) },
    newest: { content: 'Kubernetes upgrade: production upgraded, all nodes on 1.31.', occurredAt: iso(now - 2 * DAY) },
  };
  let tenantId: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    ({ tenantId, ids } = await corpus('order', upgrade));
  });

  it.each(strategies)('%s: "what did I say first about X" returns the oldest first', async (strategy) => {
    const found = await search(tenantId, 'What did I say first about the kubernetes upgrade?', strategy);
    expect(keysOf(ids, found.memories)).toEqual(['oldest', 'middle', 'newest']);
    expect(found.trace.time).toMatchObject({ expressions: ['first'], order: 'oldest' });
  });

  it.each(strategies)('%s: "latest" returns the newest first', async (strategy) => {
    const found = await search(tenantId, 'What is the latest on the kubernetes upgrade?', strategy);
    expect(keysOf(ids, found.memories)).toEqual(['newest', 'middle', 'oldest']);
  });

  it('the context bundle gives the order: an ordering question is answered by its first memory', async () => {
    const bundle = await server.post<Loose>('/context/get', {
      query: 'when did we first talk about the kubernetes upgrade',
      strategy: 'lexical',
      includeRules: false,
      includeSkillFiles: false,
      scope: { tenantId },
    });
    expect(keysOf(ids, bundle.memories)).toEqual(['oldest', 'middle', 'newest']);
    expect(bundle.memories.map((memory: Loose) => memory.occurredAt)).toEqual(
      [upgrade.oldest, upgrade.middle, upgrade.newest].map((memory) => memory.occurredAt),
    );
  });
});

describe('a question that asks when', () => {
  const moves = {
    talk: {
      content: 'Billing deploys move: a long talk about the billing deploys move, billing and deploys and the move.',
      occurredAt: iso(now - 3 * DAY),
    },
    dated: { content: 'We moved the billing deploys to Thursdays yesterday.', occurredAt: iso(now - 2 * DAY) },
  };
  let tenantId: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    ({ tenantId, ids } = await corpus('when', moves));
  });

  it.each(strategies)('%s: the memory that says when comes first', async (strategy) => {
    const found = await search(tenantId, 'When did we move the billing deploys?', strategy);
    expect(keysOf(ids, found.memories)[0]).toBe('dated');
    expect(found.trace.time).toMatchObject({ asksWhen: true, expressions: [] });
    const plain = await search(tenantId, 'we move the billing deploys', strategy);
    expect(keysOf(ids, plain.memories)[0]).toBe('talk');
  });
});
