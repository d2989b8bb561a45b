import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeServices, createApp, createServices, loadConfig } from '../../packages/server/src/index.js';
import { sharedDatabasePool } from '../../packages/server/src/store/database-pool.js';
import { percentile } from './load.js';
import { generateMemories, generateQueries } from './seed-data.js';
import { StatementTimings } from './statement-timings.js';

/**
 * What one request to a tenant whose database is not open costs, in-process and one request at a time (no queueing):
 * lexical `context/get` to `--tenants` tenants in turn over an open-database cache of `--cache`, against the same
 * request to a tenant whose database is open; with the database statements each ran (the worker pool's count) and the
 * busy time of the database workers. A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/tenant-open-profile.ts --tenants 300 --cache 16
 */
const { values } = parseArgs({
  options: {
    tenants: { type: 'string', default: '300' },
    cache: { type: 'string', default: '16' },
    memories: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '2' },
    /** Time each database request by its statement (or kind) and print the costliest of the tenants-in-turn run. */
    statements: { type: 'boolean', default: false },
  },
});
const tenants = Number(values.tenants);
const API_KEY = `mem_${'d4'.repeat(32)}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tenant-open-profile-'));
const config = loadConfig(
  { MEMORY_TENANT_QUOTA: '0' },
  {
    dataDir,
    bootstrapApiKey: API_KEY,
    logLevel: 'silent',
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
    embeddingModel: 'local/hash-384',
    tenantCacheSize: Number(values.cache),
  },
);
const services = await createServices(config);
const app = createApp(services);
const call = async (route: string, body: unknown) => {
  const response = await app.request(`/api/sdk/v1/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
};
try {
  const contents = Array.from(generateMemories(500, 5), (memory) => memory.content);
  for (let index = 0; index < tenants * Number(values.memories); index++)
    await call('memories/add', {
      content: contents[index % contents.length],
      scope: { tenantId: `t${index % tenants}` },
    });
  const queries = generateQueries(100, 5);
  const pool = sharedDatabasePool();
  const timings = values.statements ? new StatementTimings(pool) : null;
  const measure = async (label: string, tenantOf: (index: number) => string, count: number) => {
    const times: number[] = [];
    const before = pool.stats();
    for (let index = 0; index < count; index++) {
      const started = performance.now();
      await call('context/get', {
        query: queries[index % queries.length],
        strategy: 'lexical',
        scope: { tenantId: tenantOf(index) },
      });
      times.push(performance.now() - started);
    }
    const after = pool.stats();
    times.sort((a, b) => a - b);
    const statements = (after.completed - before.completed) / count;
    const busy = ((after.busySeconds - before.busySeconds) * 1000) / count;
    console.log(
      `${label}: p50 ${percentile(times, 0.5)} / p95 ${percentile(times, 0.95)} ms; ${statements.toFixed(1)} database requests and ${busy.toFixed(2)} worker-ms each`,
    );
  };
  for (let round = 0; round < Number(values.rounds); round++) {
    if (timings !== null) timings.recording = round === Number(values.rounds) - 1;
    await measure(`tenants in turn (${tenants}, cache ${values.cache})`, (index) => `t${index % tenants}`, tenants);
    if (timings !== null) timings.recording = false;
    await measure('one open tenant', () => 't0', 200);
  }
  timings?.print(tenants);
} finally {
  await closeServices(services);
  rmSync(dataDir, { recursive: true, force: true });
}
