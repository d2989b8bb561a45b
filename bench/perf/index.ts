import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from '../../packages/server/src/store/database.js';
import { rawFtsFloor } from './floors.js';
import { type LoadResult, runLoad } from './load.js';
import { seedWorkspace } from './seed.js';
import { generateQueries } from './seed-data.js';
import { BENCH_EMBEDDING_MODEL, type ServerProcess, startServerProcess } from './server-process.js';
import { runSoak, type SoakResult } from './soak.js';

/**
 * `pnpm bench`: the performance benchmark (not a test). Seeds 10k and 100k memories, runs the built server in
 * its own process, loads it over real HTTP on loopback with autocannon, measures the floors (`GET /health`, the
 * raw FTS5 query), reports peak RSS, and finishes with a 120 s mixed-load soak (judged on its last third, past the warm-up).
 */
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    seconds: { type: 'string', default: '10' },
    'soak-seconds': { type: 'string', default: '120' },
    'no-soak': { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results' },
    /** Write a V8 CPU profile of the server (`--cpu-prof`) into the output folder. */
    profile: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
    /**
     * A folder keeping each size's seeded and embedded workspace database between runs (seeding and the 100k vector
     * backfill take minutes). A run copies the cached file, so every run starts from the same data.
     */
    'data-cache': { type: 'string', default: '' },
  },
});
const sizes = values.sizes
  .split(',')
  .filter((size) => size.trim() !== '')
  .map(Number);
const seconds = Number(values.seconds);
const apiKey = `mem_${'5e'.repeat(32)}`;
const queries = generateQueries(200);
let queryIndex = 0;
const nextQuery = () => queries[queryIndex++ % queries.length]!;
let addIndex = 0;

interface SizeReport {
  memories: number;
  seedSeconds: number;
  vectorsSeconds: number | null;
  loads: LoadResult[];
  rawFts: { p50: number; p95: number; queries: number };
  peakRssMb: number;
}

async function embedAll(server: ServerProcess): Promise<number | null> {
  const started = performance.now();
  for (let batch = 0; batch < 10_000; batch += 1) {
    const response = await fetch(`${server.url}/api/sdk/v1/management/embeddings/backfill`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'run', batchSize: 500 }),
    });
    if (response.status === 404) return null;
    const body = (await response.json()) as { ok: boolean; data: { backfill: { remaining: number } } | null };
    if (!body.ok || body.data === null) throw new Error('backfill failed');
    if (body.data.backfill.remaining === 0) break;
  }
  return (performance.now() - started) / 1000;
}

/** Saves a consistent copy of a workspace database (the server may still have it open) into the data cache. */
async function cacheWorkspace(workspace: string, cached: string): Promise<void> {
  mkdirSync(path.dirname(cached), { recursive: true });
  rmSync(cached, { force: true });
  const database = await Database.open({ url: `file:${workspace}` });
  try {
    await database.run('VACUUM INTO ?', [cached]);
  } finally {
    await database.close();
  }
}

async function measureSize(memories: number): Promise<SizeReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-bench-'));
  try {
    const workspace = path.join(dataDir, 'workspace.db');
    const cached = values['data-cache'] === '' ? null : path.resolve(values['data-cache'], `workspace-${memories}.db`);
    const reused = cached !== null && existsSync(cached);
    if (reused) {
      process.stderr.write(`reusing ${cached}\n`);
      copyFileSync(cached, workspace);
    }
    if (!reused) process.stderr.write(`seeding ${memories} memories...\n`);
    const seeded = reused ? { seconds: Number.NaN } : await seedWorkspace(`file:${workspace}`, memories);
    const profileArgs = values.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(values.out, 'profiles')] : [];
    const server = await startServerProcess(dataDir, apiKey, profileArgs);
    try {
      if (!reused) process.stderr.write('embedding (backfill through the API)...\n');
      const vectorsSeconds = reused ? Number.NaN : await embedAll(server);
      if (cached !== null && !reused) await cacheWorkspace(workspace, cached);
      const only = values.only === '' ? null : values.only.split(',');
      const skipped: LoadResult = {
        name: 'skipped',
        connections: 0,
        requests: 0,
        errors: 0,
        non2xx: 0,
        requestsPerSecond: 0,
        p50: Number.NaN,
        p95: Number.NaN,
        p99: Number.NaN,
      };
      const run = async (name: string, shape: Parameters<typeof runLoad>[3], connections: number) => {
        if (only !== null && name !== 'warmup' && !only.some((part) => name.includes(part)))
          return { ...skipped, name, connections };
        process.stderr.write(`  ${name} c=${connections}\n`);
        return runLoad(name, server.url, apiKey, shape, { connections, seconds });
      };
      const context = (strategy: string) => ({
        method: 'POST' as const,
        path: '/api/sdk/v1/context/get',
        body: () => ({ query: nextQuery(), strategy }),
      });
      const loads: LoadResult[] = [];
      await run('warmup', context('lexical'), 4);
      for (const connections of [1, 16]) {
        loads.push(await run('GET /health (floor)', { method: 'GET', path: '/api/sdk/v1/health' }, connections));
        loads.push(await run('context/get lexical', context('lexical'), connections));
        loads.push(await run('context/get hybrid', context('hybrid'), connections));
        loads.push(
          await run(
            'memories/search',
            { method: 'POST', path: '/api/sdk/v1/memories/search', body: () => ({ query: nextQuery() }) },
            connections,
          ),
        );
      }
      loads.push(
        await run(
          'memories/add',
          {
            method: 'POST',
            path: '/api/sdk/v1/memories/add',
            body: () => ({ content: `bench memory ${addIndex++} about ${nextQuery()}`, tags: ['bench'] }),
          },
          8,
        ),
      );
      const rawFts = await rawFtsFloor(`file:${path.join(dataDir, 'workspace.db')}`, queries, 5);
      return {
        memories,
        seedSeconds: seeded.seconds,
        vectorsSeconds,
        loads,
        rawFts,
        peakRssMb: Math.round(server.peakRssMb()),
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(reports: SizeReport[], soak: SoakResult | null): void {
  for (const report of reports) {
    const health = (connections: number) =>
      report.loads.find((load) => load.name.startsWith('GET /health') && load.connections === connections);
    console.log(
      `\n${report.memories.toLocaleString('en')} memories (seed ${report.seedSeconds.toFixed(1)} s${report.vectorsSeconds === null ? ', no vector backfill route' : `, vectors ${report.vectorsSeconds.toFixed(1)} s`}), server peak RSS ${report.peakRssMb} MB`,
    );
    console.log('| run | conc. | req/s | p50 ms | p95 ms | p99 ms | p50 / health p50 | errors |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const load of report.loads.filter((each) => each.name !== 'warmup')) {
      const floor = health(load.connections) ?? health(16);
      const ratio = floor && !load.name.startsWith('GET /health') ? (load.p50 / floor.p50).toFixed(2) : '—';
      console.log(
        `| ${load.name} | ${load.connections} | ${load.requestsPerSecond} | ${load.p50} | ${load.p95} | ${load.p99} | ${ratio} | ${load.errors + load.non2xx} |`,
      );
    }
    console.log(
      `| raw FTS5 query (floor, in-process) | 1 | — | ${report.rawFts.p50} | ${report.rawFts.p95} | — | — | 0 |`,
    );
  }
  if (soak) {
    console.log(
      `\nsoak: ${soak.seconds} s mixed load, ${soak.requests} requests, ${soak.errors} errors, RSS over the last third ${soak.rssStartMb} -> ${soak.rssEndMb} MB (peak ${soak.peakRssMb} MB; every 5 s: ${soak.samples.join(' ')}), ${soak.flat ? 'flat' : 'GROWING'}`,
    );
  }
}

const reports: SizeReport[] = [];
for (const size of sizes) reports.push(await measureSize(size));
const soak = values['no-soak'] ? null : await runSoak(apiKey, Number(values['soak-seconds']));
printTable(reports, soak);
const result = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  secondsPerRun: seconds,
  embeddingModel: BENCH_EMBEDDING_MODEL,
  seeding:
    'memories written through the server storage layer directly (batched transactions), vectors built by the backfill API',
  reports,
  soak,
};
mkdirSync(values.out, { recursive: true });
const file = path.join(values.out, `perf-${result.date.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nresults written to ${file}`);
if (soak && (soak.errors > 0 || !soak.flat)) process.exitCode = 1;
