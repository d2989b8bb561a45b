import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/server.js';
import { TEST_KEY } from './harness.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-ip-limit-'));
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(
    {
      host: '127.0.0.1',
      port: 0,
      dataDir,
      bootstrapApiKey: TEST_KEY,
      logLevel: 'silent',
      rateLimitPerMinute: 0,
      ipRateLimitPerMinute: 3,
    },
    { environment: {} },
  );
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('per-address rate limit', () => {
  it('limits a client address before authentication, so keys cannot be guessed at speed', async () => {
    const guess = () =>
      fetch(`${server.url}/api/sdk/v1/memories/list`, {
        method: 'POST',
        headers: { authorization: `Bearer mem_${'0'.repeat(64)}`, 'content-type': 'application/json' },
        body: '{}',
      });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await guess()).status).toBe(401);
    const blocked = await guess();
    expect(blocked.status).toBe(429);
    const body = (await blocked.json()) as { error: { code: string; details: { retryAfterSeconds: number } } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBe(body.error.details.retryAfterSeconds);
    expect(blocked.headers.get('x-ratelimit-limit')).toBe('3');
    // A valid key from the same address is refused too: the address limit comes first.
    const valid = await fetch(`${server.url}/api/sdk/v1/memories/list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(valid.status).toBe(429);
  });
});
