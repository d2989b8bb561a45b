import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from '../../packages/server/src/store/database.js';
import { churnTargetRows } from './churn-report.js';
import { runChurnSoak } from './churn-soak.js';
import { measureEncoderWrites } from './encoder-writes.js';
import { measureEvalReplay } from './eval-replay.js';
import { rawFtsFloor } from './floors.js';
import { measureHealthUnderLoad } from './health-under-load.js';
import { drainAfterLoad, readQueue } from './index-queue.js';
import { type RequestShape, runLoad } from './load.js';
import { printReport, type SizeReport } from './print-report.js';
import { seedWorkspace } from './seed.js';
import { generateQueries } from './seed-data.js';
import {
  BENCH_EMBEDDING_MODEL,
  DEFAULT_ENCODER_MODEL,
  type ServerProcess,
  startServerProcess,
} from './server-process.js';
import { runSoak } from './soak.js';
import { measureSqldProcesses } from './sqld-processes.js';
import { sweepTargetRows } from './sweep-report.js';
import { MILLION, targetRows } from './targets.js';
import { runTenantSweep } from './tenant-sweep.js';
import { measureTransfer } from './transfer.js';

/**
 * `pnpm bench`: the performance benchmark (not a test). Seeds 10k and 100k memories, runs the built server in
 * its own process, loads it over real HTTP on loopback with autocannon, measures the floors (`GET /health`, the
 * raw FTS5 query), `/health` under a hybrid + write load, one large eval replay, writes with the default sentence
 * encoder and the background indexing rate (largest size), one vs two server processes on sqld, reports peak RSS
 * and the targets, and finishes with a 120 s mixed-load soak (judged on its last third, past the warm-up) and a
 * 180 s tenant churn soak (more tenants than the open-tenant cache, re-provisions and the largest MCP batches, with
 * the server's descriptors and RSS sampled).
 */
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    seconds: { type: 'string', default: '10' },
    'soak-seconds': { type: 'string', default: '120' },
    'no-soak': { type: 'boolean', default: false },
    /** The tenant churn soak (issue 23): seconds measured after its warm-up, then seconds idle. */
    'churn-seconds': { type: 'string', default: '180' },
    'churn-warm-up-seconds': { type: 'string', default: '30' },
    'churn-idle-seconds': { type: 'string', default: '60' },
    /** Tenants the churn soak's writers cycle (its server's open-tenant cache holds 64). */
    'churn-tenants': { type: 'string', default: '160' },
    /** Leave the largest MCP batches out of the churn soak (for a server that one such batch would end). */
    'no-churn-mcp': { type: 'boolean', default: false },
    /** The `packages/server` folder the churn soak runs (another checkout's built server, e.g. before a fix). */
    'churn-server': { type: 'string', default: '' },
    'no-churn': { type: 'boolean', default: false },
    /** The tenant sweep (issue 27): tenants touched in turn by 16 clients, memories written to each, seconds. */
    'sweep-tenants': { type: 'string', default: '5000' },
    'sweep-memories': { type: 'string', default: '2' },
    'sweep-seconds': { type: 'string', default: '60' },
    'no-sweep': { type: 'boolean', default: false },
    /** The `packages/server` folder the tenant sweep runs (another checkout's built server, e.g. before a change). */
    'sweep-server': { type: 'string', default: '' },
    /** The `packages/server` folder the encoder part runs (another checkout's built server, e.g. before a change). */
    'encoder-server': { type: 'string', default: '' },
    out: { type: 'string', default: 'bench/results' },
    /** Write a V8 CPU profile of the server (`--cpu-prof`) into the output folder. */
    profile: { type: 'boolean', default: false },
    /**
     * Comma-separated parts to run (a part runs when its name contains one of them): the run names of the table,
     * `health under load`, `eval replay`, `encoder`, `raw FTS5`, `sqld`, `soak`, `churn` (`soak` selects both soaks),
     * `tenant sweep`.
     */
    only: { type: 'string', default: '' },
    /**
     * A folder keeping each size's seeded and embedded workspace database between runs (seeding and the 100k vector
     * backfill take minutes). A run copies the cached file, so every run starts from the same data.
     */
    'data-cache': { type: 'string', default: '' },
    /**
     * Seed without vectors (no backfill): the lexical, search and write runs only, the hybrid ones and the encoder
     * skipped. For a quick look at a size whose vector backfill takes hours (1M: DiskANN inserts one at a time).
     */
    'no-vectors': { type: 'boolean', default: false },
    /** Skip the default-encoder writes and background indexing (model load plus up to --index-timeout). */
    'no-encoder': { type: 'boolean', default: false },
    /** Skip one vs two server processes on sqld. */
    'no-sqld': { type: 'boolean', default: false },
    /** Seconds the background indexing may take to catch up after a write load (its rate is measured either way). */
    'index-timeout': { type: 'string', default: '120' },
    /** Memories the sqld comparison adds through the API before its load. */
    'sqld-seed': { type: 'string', default: '2000' },
  },
});
const sizes = values.sizes
  .split(',')
  .filter((size) => size.trim() !== '')
  .map(Number);
const seconds = Number(values.seconds);
const indexTimeoutSeconds = Number(values['index-timeout']);
const apiKey = `mem_${'5e'.repeat(32)}`;
const queries = generateQueries(200);
let queryIndex = 0;
const nextQuery = () => queries[queryIndex++ % queries.length]!;
let addIndex = 0;

const only = values.only === '' ? null : values.only.split(',').map((part) => part.trim());
/** Whether a part (a run name or a part name) is selected by `--only`. */
const withoutVectors = values['no-vectors'];
/** Parts that read vectors: left out of a `--no-vectors` run. */
const needsVectors = (name: string) => name.includes('hybrid') || name === 'health under load' || name === 'encoder';
const selected = (name: string) =>
  !(withoutVectors && needsVectors(name)) && (only === null || only.some((part) => part !== '' && name.includes(part)));
const STANDARD_RUNS = ['GET /health (floor)', 'context/get lexical', 'context/get hybrid', 'memories/search'];
const PARTS = {
  add: 'memories/add',
  underLoad: 'health under load',
  evalReplay: 'eval replay',
  rawFts: 'raw FTS5 query (floor)',
  encoder: 'encoder',
  sqld: 'sqld',
  soak: 'soak',
  churn: 'tenant churn soak',
  transfer: 'export and import',
  sweep: 'tenant sweep',
};
/**
 * The encoder runs at one size only, the largest below a million: the model makes them the slowest part, and its
 * targets are set at 100k (a 1M-only run has none).
 */
const encoderSize = Math.max(...sizes.filter((size) => size < MILLION));
const runEncoder = !values['no-encoder'] && selected(PARTS.encoder);

/**
 * Questions the hybrid runs ask once each: the server keeps recent query vectors (a per-model LRU of 1,024), so a
 * repeated question would measure that cache, not the query's embedding and search.
 */
const freshQueries = [...new Set(generateQueries(40_000, 11))];
let freshIndex = 0;
const nextFreshQuery = () => freshQueries[freshIndex++ % freshQueries.length]!;

const contextShape = (strategy: string): RequestShape => ({
  method: 'POST',
  path: '/api/sdk/v1/context/get',
  body: () => ({ query: strategy === 'hybrid' ? nextFreshQuery() : nextQuery(), strategy }),
});
const addShape: RequestShape = {
  method: 'POST',
  path: '/api/sdk/v1/memories/add',
  body: () => ({ content: `bench memory ${addIndex++} about ${nextQuery()}`, tags: ['bench'] }),
};

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

/** Saves a consistent copy of a workspace database (the server may still have it open). */
async function snapshotWorkspace(workspace: string, target: string): Promise<void> {
  mkdirSync(path.dirname(target), { recursive: true });
  rmSync(target, { force: true });
  const database = await Database.open({ url: `file:${workspace}` });
  try {
    await database.run('VACUUM INTO ?', [target]);
  } finally {
    await database.close();
  }
}

/**
 * The runs against the `local/hash-384` server of one size: the table's loads, the indexing after the write run,
 * `/health` under load and the eval replay.
 */
async function measureHashServer(server: ServerProcess, report: SizeReport): Promise<void> {
  const run = async (name: string, shape: RequestShape, connections: number) => {
    process.stderr.write(`  ${name} c=${connections}\n`);
    const load = await runLoad(name, server.url, apiKey, shape, { connections, seconds });
    report.loads.push(load);
    return load;
  };
  if (STANDARD_RUNS.some(selected) || selected(PARTS.add) || selected(PARTS.underLoad))
    await runLoad('warmup', server.url, apiKey, contextShape('lexical'), { connections: 4, seconds });
  for (const connections of [1, 16]) {
    const shapes: Record<string, RequestShape> = {
      'GET /health (floor)': { method: 'GET', path: '/api/sdk/v1/health' },
      'context/get lexical': contextShape('lexical'),
      'context/get hybrid': contextShape('hybrid'),
      'memories/search': { method: 'POST', path: '/api/sdk/v1/memories/search', body: () => ({ query: nextQuery() }) },
    };
    for (const name of STANDARD_RUNS) if (selected(name)) await run(name, shapes[name]!, connections);
  }
  if (selected(PARTS.add)) {
    const before = await readQueue(server.url, apiKey).catch(() => null);
    const started = performance.now();
    const add = await run(PARTS.add, addShape, 8);
    // The indexer catches up before the next run, which would otherwise share the cores with it.
    if (before !== null)
      report.hashIndexing = await drainAfterLoad(server.url, apiKey, {
        baseline: before.count,
        loadStartedMs: started,
        acknowledged: add.ok,
        timeoutMs: indexTimeoutSeconds * 1000,
      });
  }
  if (selected(PARTS.underLoad)) {
    process.stderr.write('  health under load: 16 hybrid + 8 add + /health probe\n');
    const underLoad = await measureHealthUnderLoad(server.url, apiKey, seconds, {
      hybrid: contextShape('hybrid'),
      add: addShape,
    });
    report.loads.push(underLoad.health, underLoad.hybrid, underLoad.add);
  }
  if (selected(PARTS.evalReplay)) {
    process.stderr.write('  eval replay, one ~1 MB request\n');
    report.evalReplay = await measureEvalReplay(server.url, apiKey);
  }
}

async function measureSize(memories: number): Promise<SizeReport | null> {
  const withEncoder = runEncoder && memories === encoderSize;
  const hashParts = [...STANDARD_RUNS, PARTS.add, PARTS.underLoad, PARTS.evalReplay, PARTS.rawFts, PARTS.transfer].some(
    selected,
  );
  if (!hashParts && !withEncoder) return null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-bench-'));
  try {
    const workspace = path.join(dataDir, 'workspace.db');
    const cachedName = `workspace-${memories}${withoutVectors ? '-no-vectors' : ''}.db`;
    const cached = values['data-cache'] === '' ? null : path.resolve(values['data-cache'], cachedName);
    const reused = cached !== null && existsSync(cached);
    if (reused) {
      process.stderr.write(`reusing ${cached}\n`);
      copyFileSync(cached, workspace);
    }
    if (!reused) process.stderr.write(`seeding ${memories} memories...\n`);
    const seeded = reused ? { seconds: Number.NaN } : await seedWorkspace(`file:${workspace}`, memories);
    const report: SizeReport = {
      memories,
      seedSeconds: seeded.seconds,
      vectorsSeconds: Number.NaN,
      loads: [],
      hashIndexing: null,
      evalReplay: null,
      encoder: null,
      rawFts: null,
      transfer: null,
      peakRssMb: Number.NaN,
    };
    // The encoder runs on the data as seeded and embedded, not on what this size's write runs added.
    let pristine = reused ? cached : null;
    if (hashParts || !reused) {
      const server = await startServerProcess(dataDir, apiKey, { nodeArgs: profileArgs });
      try {
        if (!reused) {
          if (withoutVectors) report.vectorsSeconds = null;
          else {
            process.stderr.write('embedding (backfill through the API)...\n');
            report.vectorsSeconds = await embedAll(server);
          }
          if (cached !== null) {
            await snapshotWorkspace(workspace, cached);
            pristine = cached;
          }
        }
        if (withEncoder && pristine === null) {
          pristine = path.join(dataDir, 'pristine.db');
          await snapshotWorkspace(workspace, pristine);
        }
        if (hashParts) await measureHashServer(server, report);
        report.peakRssMb = Math.round(server.peakRssMb());
      } finally {
        await server.stop();
      }
    }
    if (selected(PARTS.rawFts)) report.rawFts = await rawFtsFloor(`file:${workspace}`, queries, 5);
    // On the data dir the server left (its control database names the workspace): the CLI as an operator runs it.
    if (selected(PARTS.transfer) && existsSync(path.join(dataDir, 'control.db'))) {
      process.stderr.write(`export and import of ${memories} memories...\n`);
      report.transfer = await measureTransfer(dataDir);
    }
    if (withEncoder && pristine !== null) {
      process.stderr.write(`encoder ${DEFAULT_ENCODER_MODEL} at ${memories} memories (model load and warm-up)...\n`);
      report.encoder = await measureEncoderWrites({
        workspaceFile: pristine,
        memories,
        apiKey,
        seconds,
        indexTimeoutSeconds,
        addBody: addShape.body!,
        reads: { lexical: contextShape('lexical'), hybrid: contextShape('hybrid') },
        ...(values['encoder-server'] === '' ? {} : { serverRoot: path.resolve(values['encoder-server']) }),
      });
    }
    return report;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Node options of the measured servers: a V8 CPU profile each with `--profile`. */
const profileArgs = values.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(values.out, 'profiles')] : [];

const reports: SizeReport[] = [];
for (const size of sizes) {
  const report = await measureSize(size);
  if (report !== null) reports.push(report);
}
const sqld =
  values['no-sqld'] || !selected(PARTS.sqld)
    ? null
    : await (async () => {
        process.stderr.write('one vs two server processes on sqld...\n');
        return measureSqldProcesses({
          apiKey,
          seconds,
          seedCount: Number(values['sqld-seed']),
          shapes: { context: contextShape('lexical'), add: addShape },
        });
      })();
const soak = values['no-soak'] || !selected(PARTS.soak) ? null : await runSoak(apiKey, Number(values['soak-seconds']));
const churn =
  values['no-churn'] || !selected(PARTS.churn)
    ? null
    : await runChurnSoak({
        apiKey,
        seconds: Number(values['churn-seconds']),
        warmUpSeconds: Number(values['churn-warm-up-seconds']),
        idleSeconds: Number(values['churn-idle-seconds']),
        tenants: Number(values['churn-tenants']),
        mcp: !values['no-churn-mcp'],
        ...(values['churn-server'] === '' ? {} : { serverRoot: path.resolve(values['churn-server']) }),
      });
const sweep =
  values['no-sweep'] || !selected(PARTS.sweep)
    ? null
    : await runTenantSweep({
        apiKey,
        tenants: Number(values['sweep-tenants']),
        clients: 16,
        memoriesPerTenant: Number(values['sweep-memories']),
        seconds: Number(values['sweep-seconds']),
        nodeArgs: profileArgs,
        ...(values['sweep-server'] === '' ? {} : { serverRoot: path.resolve(values['sweep-server']) }),
      });
// With --only, the targets of parts that did not run are left out.
const targets = [
  ...targetRows(reports, encoderSize).filter((row) => only === null || row.verdict !== 'not measured'),
  ...(churn === null ? [] : churnTargetRows(churn)),
  ...(sweep === null ? [] : sweepTargetRows(sweep)),
];
printReport(reports, sqld, soak, targets, churn, sweep);
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
  encoderModel: DEFAULT_ENCODER_MODEL,
  seeding:
    'memories written through the server storage layer directly (batched transactions), vectors built by the backfill API',
  reports,
  sqld,
  soak,
  churn,
  sweep,
  targets,
};
mkdirSync(values.out, { recursive: true });
const file = path.join(values.out, `perf-${result.date.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nresults written to ${file}`);
if ((soak && (soak.errors > 0 || !soak.flat)) || (churn && !churn.passed)) process.exitCode = 1;
