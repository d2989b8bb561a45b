import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateQueries } from './seed-data.js';
import { startServerProcess } from './server-process.js';

/**
 * The built server under environments to compare, each run in its own process on a fresh copy of one workspace
 * database, in the order given (list them A-B-B-A on a machine whose speed drifts). The launcher bounds the main
 * thread's young generation unless `NODE_OPTIONS` names a size, so `{}` (8 MB semi-spaces) against
 * `{"NODE_OPTIONS":"--max-semi-space-size=64"}` (what V8 picks unbounded on a 24 GiB machine) compares the bound
 * with its absence; `{"nodeArgs":["--heap-growing-percent=0"]}` runs the old generation's growth as V8 picks it.
 * Each: lexical and hybrid `context/get` at 1 client (150 new questions each), hybrid at 16 clients for 20 s, 3,000
 * adds at 8 clients, then the server's RSS and peak. A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/server-env-ab.ts --database <workspace.db> --envs '{};{"NODE_OPTIONS":"..."};...'
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    /** Environments, as JSON objects separated by `;`. */
    envs: { type: 'string', default: '{}' },
  },
});
if (values.database === undefined) throw new Error('--database <workspace.db> is needed');
const API_KEY = `mem_${'ab'.repeat(32)}`;
const questions = generateQueries(3_000);
let next = 0;
const question = () => questions[next++ % questions.length] as string;
const percentile = (times: number[], p: number) =>
  [...times].sort((left, right) => left - right)[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ??
  Number.NaN;

for (const env of values.envs.split(';')) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'server-env-ab-'));
  copyFileSync(path.resolve(values.database), path.join(dataDir, 'workspace.db'));
  // An entry's `nodeArgs` (a list) go on Node's command line (V8 flags NODE_OPTIONS does not take); the rest is the
  // environment.
  const { nodeArgs = [], ...environment } = JSON.parse(env) as Record<string, string> & { nodeArgs?: string[] };
  const server = await startServerProcess(dataDir, API_KEY, { environment, nodeArgs });
  try {
    const post = async (route: string, body: unknown) => {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/sdk/v1/${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${route} answered ${response.status}`);
      return performance.now() - started;
    };
    for (let index = 0; index < 20; index++) await post('context/get', { query: question(), strategy: 'hybrid' });
    const row = [env];
    for (const strategy of ['lexical', 'hybrid'] as const) {
      const times: number[] = [];
      for (let index = 0; index < 150; index++) times.push(await post('context/get', { query: question(), strategy }));
      row.push(
        `${strategy} 1 client p50 ${percentile(times, 50).toFixed(1)} / p95 ${percentile(times, 95).toFixed(1)} ms`,
      );
    }
    const loaded: number[] = [];
    const until = performance.now() + 20_000;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (performance.now() < until)
          loaded.push(await post('context/get', { query: question(), strategy: 'hybrid' }));
      }),
    );
    row.push(`hybrid 16 clients ${(loaded.length / 20).toFixed(1)}/s, p95 ${percentile(loaded, 95).toFixed(0)} ms`);
    let sent = 0;
    const addsStarted = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < 3_000) {
          sent++;
          await post('memories/add', { content: `note ${sent}: ${question()}` });
        }
      }),
    );
    row.push(`adds 8 clients ${(3_000 / ((performance.now() - addsStarted) / 1000)).toFixed(0)}/s`);
    row.push(`RSS ${server.rssMb().toFixed(0)} MB, peak ${server.peakRssMb().toFixed(0)} MB`);
    process.stdout.write(`${row.join(' | ')}\n`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
