import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sharedDatabasePool } from '../../packages/server/src/store/database-pool.js';
import { startInProcessServer, type TimedCalls, timedCalls } from './context-in-process.js';
import { percentile } from './load.js';
import { generateQueries } from './seed-data.js';
import { StatementTimings } from './statement-timings.js';

/**
 * One tenant's writers beside its readers, in-process (issue 27's "foreground first" row): `--writers` clients of
 * `memories/add` alone, `--readers` clients of `context/get` (`--strategy`, hybrid by default) alone, then both at
 * once, `--seconds` each, on a copy of `--database` (a bench workspace) with `--model` as the server's embedding
 * model. Prints each phase's rate and latency, and with `--statements` the database requests of the mixed phase by
 * statement (wall time from the pool's queue to the answer, so queueing included). A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/mixed-profile.ts --database /tmp/cache/workspace-100000.db --model local/use-lite-512
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    model: { type: 'string', default: 'local/use-lite-512' },
    readers: { type: 'string', default: '8' },
    strategy: { type: 'string', default: 'hybrid' },
    writers: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '15' },
    statements: { type: 'boolean', default: false },
  },
});
if (values.database === undefined) throw new Error('--database <workspace file> is required');
const dataDir = mkdtempSync(path.join(tmpdir(), 'mixed-profile-'));
copyFileSync(values.database, path.join(dataDir, 'workspace.db'));
const server = await startInProcessServer(dataDir, { embeddingModel: values.model });
const queries = generateQueries(2000, 11);
let nextAdd = 0;
let nextQuery = 0;
const add = () =>
  server.post('memories/add', {
    content: `bench memory ${nextAdd++} about ${queries[nextAdd % 2000]}`,
    tags: ['bench'],
  });
const read = () => server.post('context/get', { query: queries[nextQuery++ % 2000], strategy: values.strategy });

const describe = (label: string, phase: TimedCalls) =>
  console.log(
    `${label.padEnd(28)} ${(phase.times.length / phase.seconds).toFixed(1).padStart(8)}/s` +
      `  p50 ${percentile(phase.times, 0.5)} / p95 ${percentile(phase.times, 0.95)}` +
      ` / p99 ${percentile(phase.times, 0.99)} ms`,
  );

try {
  const seconds = Number(values.seconds);
  const readers = Number(values.readers);
  const writers = Number(values.writers);
  for (let index = 0; index < 16; index++) await add();
  for (let index = 0; index < 20; index++) await read();
  const addsAlone = await timedCalls(writers, seconds, add);
  const readsAlone = await timedCalls(readers, seconds, read);
  const timings = new StatementTimings(sharedDatabasePool());
  timings.recording = values.statements;
  const [mixedReads, mixedAdds] = await Promise.all([
    timedCalls(readers, seconds, read),
    timedCalls(writers, seconds, add),
  ]);
  timings.recording = false;
  describe(`adds alone (${writers})`, addsAlone);
  describe(`${values.strategy} reads alone (${readers})`, readsAlone);
  describe('adds beside readers', mixedAdds);
  describe(`${values.strategy} reads beside writers`, mixedReads);
  const share = (mixed: TimedCalls, alone: TimedCalls) =>
    `${Math.round((100 * (mixed.times.length / mixed.seconds)) / (alone.times.length / alone.seconds))}%`;
  console.log(`adds kept ${share(mixedAdds, addsAlone)} of alone, reads ${share(mixedReads, readsAlone)}`);
  if (values.statements) timings.print(mixedAdds.times.length + mixedReads.times.length, 60);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
