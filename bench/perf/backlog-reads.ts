import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startInProcessServer, timedCalls } from './context-in-process.js';
import { percentile } from './load.js';
import { generateQueries } from './seed-data.js';

/**
 * Reads beside the indexer, in-process (issue 27's "foreground first" backlog rows): lexical and hybrid `context/get`
 * at 1 client for `--seconds` each with the indexer idle, then `--backlog` adds at 8 clients, then the same reads while
 * the indexer works that backlog; each read's p50 / p95 and the ratio of the p95s. On a copy of `--database` (a bench
 * workspace) with `--model` as the server's embedding model. A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/backlog-reads.ts --database /tmp/cache/workspace-100000.db --backlog 20000
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    model: { type: 'string', default: 'local/use-lite-512' },
    backlog: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '10' },
  },
});
if (values.database === undefined) throw new Error('--database <workspace file> is required');
const dataDir = mkdtempSync(path.join(tmpdir(), 'backlog-reads-'));
copyFileSync(values.database, path.join(dataDir, 'workspace.db'));
const server = await startInProcessServer(dataDir, { embeddingModel: values.model });
const questions = [...new Set(generateQueries(40_000, 17))];
let nextQuestion = 0;
let nextAdd = 0;

/** One client's reads of `strategy` for `seconds`: every latency, sorted. */
async function reads(strategy: 'lexical' | 'hybrid', seconds: number): Promise<number[]> {
  const call = () => server.post('context/get', { query: questions[nextQuestion++ % questions.length], strategy });
  return (await timedCalls(1, seconds, call)).times;
}

async function addMany(count: number): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent++ < count) {
        await server.post('memories/add', { content: `bench memory ${nextAdd++} about ${questions[nextAdd % 500]}` });
      }
    }),
  );
}

try {
  const seconds = Number(values.seconds);
  await addMany(16);
  await reads('hybrid', 3);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const idle = { lexical: await reads('lexical', seconds), hybrid: await reads('hybrid', seconds) };
  await addMany(Number(values.backlog));
  const busy = { lexical: await reads('lexical', seconds), hybrid: await reads('hybrid', seconds) };
  for (const strategy of ['lexical', 'hybrid'] as const) {
    const [quiet, loaded] = [idle[strategy], busy[strategy]];
    console.log(
      `${strategy.padEnd(8)} idle p50 ${percentile(quiet, 0.5)} / p95 ${percentile(quiet, 0.95)} ms;` +
        ` during the backlog p50 ${percentile(loaded, 0.5)} / p95 ${percentile(loaded, 0.95)} ms;` +
        ` p95 ${(percentile(loaded, 0.95) / percentile(quiet, 0.95)).toFixed(2)}x idle`,
    );
  }
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
