import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sharedDatabasePool } from '../../packages/server/src/store/database-pool.js';
import { startInProcessServer } from './context-in-process.js';
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
const dataDir = mkdtempSync(path.join(tmpdir(), 'add-profile-'));
copyFileSync(values.database, path.join(dataDir, 'workspace.db'));
const server = await startInProcessServer(dataDir, { embeddingModel: 'local/hash-384' });
const queries = generateQueries(500, 9);
let next = 0;
const add = async () => {
  const index = next++;
  const started = performance.now();
  await server.post('memories/add', {
    content: `bench memory ${index} about ${queries[index % queries.length]}`,
    tags: ['bench'],
  });
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
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
