import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlidingWindowRateLimiter } from '../src/admission/rate-limiter.js';
import { pinClock } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

// A client that honours Retry-After must be admitted, not refused again (or it never gets through).

const list = (server: TestServer) => server.call('POST', '/memories/list', {});

describe('Retry-After over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ rateLimitPerMinute: 3 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('admits a retry after exactly Retry-After seconds, and not one second sooner', async () => {
    // Half way through a minute: the old answer (the end of this minute) was refused again, since the three
    // requests then still weigh fully in the sliding window.
    const start = new Date('2026-03-01T10:00:30.000Z').getTime();
    pinClock(server, new Date(start));
    for (let request = 0; request < 3; request += 1) expect((await list(server)).status).toBe(200);
    const refused = await list(server);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBe(refused.body.error?.details?.retryAfterSeconds);
    expect(retryAfter).toBe(50);
    pinClock(server, new Date(start + (retryAfter - 1) * 1000));
    expect((await list(server)).status).toBe(429);
    pinClock(server, new Date(start + retryAfter * 1000));
    expect((await list(server)).status).toBe(200);
  });
});

describe('Retry-After of the sliding window', () => {
  /** Requests at these offsets (ms) from a minute's start, until the first refusal; then its Retry-After is checked. */
  const schedules: Array<{ limit: number; offsets: number[] }> = [
    { limit: 1, offsets: [0, 0] },
    { limit: 3, offsets: [59_999, 59_999, 59_999, 59_999] },
    { limit: 3, offsets: [10_000, 50_000, 65_000, 70_000, 70_000] },
    { limit: 5, offsets: [1_000, 2_000, 3_000, 61_000, 62_000, 62_500, 63_000, 64_000] },
    { limit: 10, offsets: Array.from({ length: 12 }, (_, index) => 55_000 + index * 700) },
    { limit: 7, offsets: [0, 0, 0, 0, 59_000, 59_000, 59_000, 59_500] },
    { limit: 2, offsets: [30_000, 90_000, 90_001, 90_002] },
  ];

  for (const [index, { limit, offsets }] of schedules.entries()) {
    it(`admits exactly at Retry-After (schedule ${index + 1}, limit ${limit})`, () => {
      const base = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
      const limiter = new SlidingWindowRateLimiter(limit);
      let refusedAt: number | undefined;
      let retryAfter = 0;
      for (const offset of offsets) {
        const decision = limiter.take('key', base + offset);
        if (!decision.allowed) {
          refusedAt = base + offset;
          retryAfter = decision.retryAfterSeconds;
          break;
        }
      }
      expect(refusedAt).toBeDefined();
      const at = refusedAt ?? 0;
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      // Refused requests are not counted, so probing one second early does not move the answer.
      if (retryAfter > 1) expect(limiter.take('key', at + (retryAfter - 1) * 1000).allowed).toBe(false);
      expect(limiter.take('key', at + retryAfter * 1000).allowed).toBe(true);
    });
  }
});
