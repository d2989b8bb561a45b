import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addMany } from './add-many.js';
import { type LoadResult, type RequestShape, runLoad } from './load.js';
import { generateQueries } from './seed-data.js';
import { DEFAULT_ENCODER_MODEL, startServerProcess } from './server-process.js';

/**
 * One tenant's 8 writers beside its 8 hybrid readers over HTTP (the encoder part's foreground row), for built servers
 * to compare, each in its own process on a fresh copy of one workspace, in the order given (list them A-B-B-A on a
 * machine whose speed drifts): hybrid `context/get` alone, `memories/add` alone, then both at once, `--seconds` each,
 * with `--model` as the server's embedding model (the default encoder by default). A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/mixed-http-ab.ts --database <workspace.db> --servers packages/server;/tmp/old/packages/server
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    /** `packages/server` folders (built), separated by `;`. */
    servers: { type: 'string', default: 'packages/server' },
    model: { type: 'string', default: DEFAULT_ENCODER_MODEL },
    seconds: { type: 'string', default: '10' },
  },
});
if (values.database === undefined) throw new Error('--database <workspace.db> is needed');
const API_KEY = `mem_${'ab'.repeat(32)}`;
const questions = [...new Set(generateQueries(40_000, 13))];
let nextQuestion = 0;
let nextAdd = 0;
const hybrid: RequestShape = {
  method: 'POST',
  path: '/api/sdk/v1/context/get',
  body: () => ({ query: questions[nextQuestion++ % questions.length], strategy: 'hybrid' }),
};
const add: RequestShape = {
  method: 'POST',
  path: '/api/sdk/v1/memories/add',
  body: () => ({ content: `bench memory ${nextAdd++} about ${questions[nextAdd % 500]}`, tags: ['bench'] }),
};
const seconds = Number(values.seconds);
const line = (label: string, result: LoadResult) =>
  `${label.padEnd(34)} ${result.okPerSecond.toFixed(1).padStart(7)}/s  p50 ${result.p50} / p95 ${result.p95} ms`;

for (const root of values.servers.split(';')) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mixed-http-ab-'));
  copyFileSync(path.resolve(values.database), path.join(dataDir, 'workspace.db'));
  const server = await startServerProcess(dataDir, API_KEY, {
    embeddingModel: values.model,
    serverRoot: path.resolve(root),
  });
  try {
    await addMany(server.url, API_KEY, { count: 16, concurrency: 8, body: add.body as () => unknown });
    await runLoad('warm-up', server.url, API_KEY, hybrid, { connections: 8, seconds: 3 });
    const readsAlone = await runLoad('reads alone', server.url, API_KEY, hybrid, { connections: 8, seconds });
    const addsAlone = await runLoad('adds alone', server.url, API_KEY, add, { connections: 8, seconds });
    const [reads, adds] = await Promise.all([
      runLoad('reads beside', server.url, API_KEY, hybrid, { connections: 8, seconds }),
      runLoad('adds beside', server.url, API_KEY, add, { connections: 8, seconds }),
    ]);
    console.log(`== ${root}`);
    console.log(line('hybrid reads alone (8)', readsAlone));
    console.log(line('adds alone (8)', addsAlone));
    console.log(line('hybrid reads beside 8 writers', reads));
    console.log(line('adds beside 8 hybrid readers', adds));
    const share = (mixed: LoadResult, alone: LoadResult) =>
      `${Math.round((100 * mixed.okPerSecond) / alone.okPerSecond)}%`;
    console.log(`adds kept ${share(adds, addsAlone)} of alone, reads ${share(reads, readsAlone)}`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
