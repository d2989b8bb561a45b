import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { closeServices, createServices } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { createLogger, redact } from '../src/logger.js';
import { ADMIN_TOKEN, TEST_KEY } from './harness.js';

const directory = mkdtempSync(path.join(tmpdir(), 'memory-logs-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('logs', () => {
  it('never contain an API key, a bearer token or the admin token', async () => {
    const lines: string[] = [];
    const config = loadConfig(
      {},
      {
        dataDir: directory,
        bootstrapApiKey: TEST_KEY,
        adminToken: ADMIN_TOKEN,
        logLevel: 'debug',
        rateLimitPerMinute: 2,
        ipRateLimitPerMinute: 0,
      },
    );
    const services = await createServices(config, { logger: createLogger('debug', (line) => lines.push(line)) });
    const app = createApp(services);
    const wrongKey = `mem_${'b2'.repeat(32)}`;
    try {
      const send = (route: string, authorization: string, body: unknown) =>
        app.request(`/api/sdk/v1${route}`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      await send('/memories/add', `Bearer ${TEST_KEY}`, { content: `my key is ${TEST_KEY}` });
      await send('/memories/add', `Bearer ${wrongKey}`, { content: 'x' });
      await send('/memories/add', 'Bearer not-a-key-but-a-secret-token', { content: 'x' });
      for (let index = 0; index < 3; index += 1) await send('/memories/list', `Bearer ${TEST_KEY}`, {});
      await app.request('/api/sdk/v1/management/keys', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      await app.request('/api/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${wrongKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      const logged = lines.join('');
      expect(lines.length).toBeGreaterThan(5);
      for (const secret of [TEST_KEY, wrongKey, 'not-a-key-but-a-secret-token', ADMIN_TOKEN]) {
        expect(logged).not.toContain(secret);
      }
      expect(logged.toLowerCase()).not.toContain('authorization":"bearer');
    } finally {
      await closeServices(services);
    }
  });

  it('redacts keys, bearer tokens and token assignments in free text', () => {
    expect(redact(`failed for ${TEST_KEY}`)).toBe('failed for mem_[redacted]');
    expect(redact('Authorization: Bearer abc.def.ghi')).toBe('Authorization: Bearer [redacted]');
    expect(redact('authToken=eyJhbGciOi secret: hunter2')).toBe('authToken=[redacted] secret: [redacted]');
  });
});
