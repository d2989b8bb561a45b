import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeServices, createApp, createServices, loadConfig } from '../../packages/server/src/index.js';
import { sharedDatabasePool } from '../../packages/server/src/store/database-pool.js';
import { percentile } from './load.js';
import { generateQueries } from './seed-data.js';
import { StatementTimings } from './statement-timings.js';

/**
 * Where an acknowledged `memories/add` spends its time on a large workspace, in-process: `--count` adds with
 * `--clients` at once on a copy of `--database` (a bench workspace, e.g. the 100k data cache), their latency, and the
 * database requests made meanwhile by statement (the indexer's too: it works beside the adds, as in `pnpm bench`). A
 * benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/add-profile.ts --database /tmp/cache/workspace-100000.db --count 2000 --clients 8
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    count: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '8' },
  },
});
if (values.database === undefined) throw new Error('--database <workspace file> is required');
const API_KEY = `mem_${'e5'.repeat(32)}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'add-profile-'));
copyFileSync(values.database, path.join(dataDir, 'workspace.db'));
const config = loadConfig(
  {},
  {
    dataDir,
    bootstrapApiKey: API_KEY,
    logLevel: 'silent',
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
    embeddingModel: 'local/hash-384',
  },
);
const services = await createServices(config);
const app = createApp(services);
const queries = generateQueries(500, 9);
let next = 0;
const add = async () => {
  const index = next++;
  const started = performance.now();
  const response = await app.request('/api/sdk/v1/memories/add', {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      content: `bench memory ${index} about ${queries[index % queries.length]}`,
      tags: ['bench'],
    }),
  });
  if (response.status !== 201) throw new Error(`add answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - started;
};
try {
  const count = Number(values.count);
  for (let index = 0; index < 50; index++) await add();
  const timings = new StatementTimings(sharedDatabasePool());
  timings.recording = true;
  const times: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Number(values.clients) }, async () => {
      while (times.length < count) times.push(await add());
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  timings.recording = false;
  times.sort((a, b) => a - b);
  console.log(
    `${times.length} adds, ${values.clients} at once: ${Math.round(times.length / seconds)}/s, p50 ${percentile(times, 0.5)} / p95 ${percentile(times, 0.95)} / p99 ${percentile(times, 0.99)} ms`,
  );
  timings.print(times.length);
} finally {
  await closeServices(services);
  rmSync(dataDir, { recursive: true, force: true });
}
