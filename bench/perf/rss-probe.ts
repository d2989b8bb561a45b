import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateQueries } from './seed-data.js';
import { DEFAULT_ENCODER_MODEL, startServerProcess } from './server-process.js';

/**
 * The server's resident memory as hybrid questions go by: the built server in its own process on an empty data dir
 * (or a copy of `--database` as its workspace: with another model than the workspace's vectors, the indexer works its
 * whole backlog meanwhile), one add (the model loads), 400 adds, 20 s for the indexer, then new hybrid questions at 1
 * client, RSS printed after each 200. `--env` adds environment variables (JSON; e.g.
 * `{"NODE_OPTIONS":"--max-semi-space-size=64"}` lifts the launcher's bound of the young generation) and `--server-root`
 * runs another checkout's `packages/server`, to compare. A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/rss-probe.ts --model local/use-lite-512 --questions 1200
 */
const { values } = parseArgs({
  options: {
    model: { type: 'string', default: DEFAULT_ENCODER_MODEL },
    questions: { type: 'string', default: '1200' },
    env: { type: 'string', default: '{}' },
    'server-root': { type: 'string' },
    database: { type: 'string' },
  },
});
const API_KEY = `mem_${'ab'.repeat(32)}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'rss-probe-'));
if (values.database !== undefined) copyFileSync(path.resolve(values.database), path.join(dataDir, 'workspace.db'));
const server = await startServerProcess(dataDir, API_KEY, {
  embeddingModel: values.model,
  environment: JSON.parse(values.env) as Record<string, string>,
  ...(values['server-root'] === undefined ? {} : { serverRoot: path.resolve(values['server-root']) }),
});
try {
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${server.url}/api/sdk/v1/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${route} answered ${response.status}`);
    await response.arrayBuffer();
  };
  const show = (label: string) =>
    process.stdout.write(
      `${label.padEnd(34)} RSS ${server.rssMb().toFixed(0)} MB, peak ${server.peakRssMb().toFixed(0)} MB\n`,
    );
  show('started');
  await post('memories/add', { content: 'The gateway rollout is owned by Ada.' });
  show('one add');
  const notes = generateQueries(400);
  for (const [index, note] of notes.entries())
    await post('memories/add', { content: `${note} (note ${index}, about ${notes[(index * 7) % notes.length]})` });
  show('400 adds');
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  show('20 s later');
  const questions = generateQueries(Number(values.questions));
  for (const [index, question] of questions.entries()) {
    await post('context/get', { query: question, strategy: 'hybrid' });
    if ((index + 1) % 200 === 0 || index + 1 === questions.length) show(`${index + 1} hybrid questions`);
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
