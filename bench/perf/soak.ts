import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { seedWorkspace } from './seed.js';
import { generateQueries } from './seed-data.js';
import { startServerProcess } from './server-process.js';

/** What the soak saw. */
export interface SoakResult {
  seconds: number;
  requests: number;
  errors: number;
  rssStartMb: number;
  rssEndMb: number;
  peakRssMb: number;
  /**
   * RSS grew less than 5% (and 10 MB) over the last third of the run: the first two thirds are warm-up (V8 heap,
   * SQLite page cache, vector index pages); a leak keeps growing through the last third.
   */
  flat: boolean;
  samples: number[];
}

/**
 * A mixed-load soak: 8 clients adding, searching, listing and getting context for `seconds`, with RSS sampled
 * every 5 s. Passes with zero errors and flat memory.
 */
export async function runSoak(apiKey: string, seconds: number): Promise<SoakResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-soak-'));
  await seedWorkspace(`file:${path.join(dataDir, 'workspace.db')}`, 10_000);
  const server = await startServerProcess(dataDir, apiKey);
  const queries = generateQueries(100, 99);
  let counter = 0;
  const body = () => {
    counter += 1;
    return queries[counter % queries.length]!;
  };
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(Math.round(server.rssMb())), 5000);
  process.stderr.write(`soak ${seconds} s...\n`);
  try {
    const result = await autocannon({
      url: server.url,
      connections: 8,
      duration: seconds,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      requests: [
        {
          method: 'POST',
          path: '/api/sdk/v1/memories/add',
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ content: `soak note ${counter} on ${body()}` }),
          }),
        },
        {
          method: 'POST',
          path: '/api/sdk/v1/memories/search',
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: body() }) }),
        },
        {
          method: 'POST',
          path: '/api/sdk/v1/context/get',
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: body() }) }),
        },
        {
          method: 'POST',
          path: '/api/sdk/v1/memories/list',
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ limit: 20 }) }),
        },
      ],
    });
    clearInterval(sampler);
    samples.push(Math.round(server.rssMb()));
    const lastThird = samples[Math.floor((samples.length * 2) / 3)] ?? samples[0] ?? 0;
    const end = samples[samples.length - 1] ?? 0;
    return {
      seconds,
      requests: result.requests.total,
      errors: result.errors + result.timeouts + result.non2xx,
      rssStartMb: lastThird,
      rssEndMb: end,
      peakRssMb: Math.round(server.peakRssMb()),
      flat: end - lastThird < Math.max(10, lastThird * 0.05),
      samples,
    };
  } finally {
    clearInterval(sampler);
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
