import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sharedDatabasePool } from '../../packages/server/src/store/database-pool.js';
import { startInProcessServer } from './context-in-process.js';
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
const dataDir = mkdtempSync(path.join(tmpdir(), 'tenant-open-profile-'));
const server = await startInProcessServer(dataDir, {
  embeddingModel: 'local/hash-384',
  // 0: no tenant quota (its default, 1,000, may be below --tenants).
  environment: { MEMORY_TENANT_QUOTA: '0' },
  overrides: { tenantCacheSize: Number(values.cache) },
});
const call = (route: string, body: unknown) => server.post(route, body);
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
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
