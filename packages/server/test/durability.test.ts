import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from './harness.js';

/**
 * Acknowledged writes survive `kill -9`: the server runs as a child process, several clients write
 * concurrently, the process is killed with SIGKILL mid-stream, restarted on the same data, and every
 * memory that got a 201 is there.
 */
const distEntry = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js')).href;
const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function launch(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const script = `
    const { startServer } = await import(${JSON.stringify(distEntry)});
    const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: ${JSON.stringify(dataDir)},
      bootstrapApiKey: ${JSON.stringify(TEST_KEY)}, logLevel: 'silent', rateLimitPerMinute: 0, ipRateLimitPerMinute: 0 }, { environment: {} });
    process.stdout.write('URL ' + server.url + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /URL (\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
}

async function add(url: string, content: string): Promise<string | null> {
  try {
    const response = await fetch(`${url}/api/sdk/v1/memories/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content, scope: { tenantId: 'durable' } }),
    });
    if (response.status !== 201) return null;
    const body = (await response.json()) as { data: { id: string } };
    return body.data.id;
  } catch {
    return null;
  }
}

describe('durability', () => {
  it('keeps every acknowledged write after SIGKILL', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-durability-'));
    directories.push(dataDir);
    const first = await launch(dataDir);
    const acknowledged: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 6 }, async (_, writer) => {
      for (let index = 0; !stop && index < 10_000; index += 1) {
        const id = await add(first.url, `writer ${writer} memory ${index} about durable storage`);
        if (id !== null) acknowledged.push(id);
      }
    });
    // Kill once a good number of writes has been acknowledged, while writers are mid-flight.
    while (acknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 10));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    const second = await launch(dataDir);
    try {
      const found = new Set<string>();
      const response = await fetch(`${second.url}/api/sdk/v1/memories/list`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ limit: 100, scope: { tenantId: 'durable' } }),
      });
      expect(response.status).toBe(200);
      // List pages are capped at 100: check every acknowledged id directly with search by its unique text instead.
      for (const id of acknowledged) {
        const edit = await fetch(`${second.url}/api/sdk/v1/memories/edit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ id, metadata: { verified: true }, scope: { tenantId: 'durable' } }),
        });
        if (edit.status === 200) found.add(id);
      }
      expect(acknowledged.filter((id) => !found.has(id))).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
