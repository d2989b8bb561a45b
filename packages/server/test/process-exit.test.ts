import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from './harness.js';

const distEntry = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js')).href;
const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-process-exit-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a server embedded in a program', () => {
  it('lets the program exit on its own after close (no worker thread keeps it alive)', async () => {
    const script = `
      const { startServer } = await import(${JSON.stringify(distEntry)});
      const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: ${JSON.stringify(dataDir)},
        bootstrapApiKey: ${JSON.stringify(TEST_KEY)}, logLevel: 'silent', embeddingModel: 'local/hash-384' },
        { environment: {} });
      const call = (route, body) => fetch(server.url + '/api/sdk/v1' + route, { method: 'POST',
        headers: { authorization: 'Bearer ${TEST_KEY}', 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if ((await call('/memories/add', { content: 'exits cleanly' })).status !== 201) process.exit(3);
      if ((await call('/context/get', { query: 'exits', strategy: 'hybrid' })).status !== 200) process.exit(4);
      await server.close();
      process.stdout.write('closed\\n');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // Bounded: a process still alive 20 s after close counts as hung (the test then kills it).
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 20_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(output).toContain('closed');
    expect(code).toBe(0);
  });
});
