import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { OutcomeTally, type Target } from './churn-http.js';
import { type ChurnVerdict, judgeChurn } from './churn-judge.js';
import { largestBatches, type McpBatchStats, sendLargestBatches } from './churn-mcp.js';
import { type McpSeed, seedMcpTenants } from './churn-seed.js';
import { CYCLED_ADD, cycleTenants, reprovisionTenants } from './churn-traffic.js';
import { commandLineOf, type ProcessSample, ProcessSampler } from './process-sampler.js';
import { startServerProcess } from './server-process.js';

/** How the churn soak runs (`pnpm bench --only churn`; see index.ts for the flags). */
export interface ChurnSoakOptions {
  apiKey: string;
  /** Seconds measured, after the warm-up. */
  seconds: number;
  /** The least warm-up: it also lasts until every tenant was written once (the cache full, every file created). */
  warmUpSeconds?: number;
  /** Seconds with no load after the run, ending with the "after idle" reading. */
  idleSeconds?: number;
  /** Tenants the writers cycle: more than `cacheSize`. */
  tenants?: number;
  /** `MEMORY_TENANT_CACHE_SIZE` of the server (its default, set explicitly). */
  cacheSize?: number;
  writers?: number;
  /** Tenants re-provisioned in turn, each with a writer of its own. */
  remappedTenants?: number;
  /** Send the largest MCP batches too (off to show the descriptor leak of a server that one batch would end). */
  mcp?: boolean;
  /** The `packages/server` folder to run (another checkout's, to compare with the code before a fix). */
  serverRoot?: string;
}

/** What the churn soak measured. */
export interface ChurnSoakResult extends ChurnVerdict {
  serverRoot: string;
  pid: number;
  commandLine: string;
  seconds: number;
  /** How long the warm-up took (at least the option's seconds). */
  warmUpSeconds: number;
  idleSeconds: number;
  tenants: number;
  cacheSize: number;
  writers: number;
  remappedTenants: number;
  databaseWorkers: number;
  seed: McpSeed | null;
  remaps: number;
  mcpBatches: McpBatchStats[];
  outcomes: Record<string, Record<string, number>>;
  samples: ProcessSample[];
  serverExitedAtSeconds: number | null;
}

const SAMPLE_INTERVAL_MS = 5000;
/** The warm-up waits for the first cycle over the tenants at most this many times its least length. */
const WARM_UP_CAP = 4;
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const elapsedSeconds = (since: number) => Math.round((performance.now() - since) / 1000);

/**
 * The tenant churn soak of issue 23: one server process on a fresh data directory, its open-tenant cache at 64, and
 * for `seconds` at once: writers cycling more tenants than the cache holds (memories/add + context/get), tenants
 * re-provisioned under their writers, and the largest MCP batches. The server's open descriptors and RSS are
 * sampled every 5 s through the warm-up, the run and an idle period; both must stay bounded and flat.
 */
export async function runChurnSoak({
  apiKey,
  seconds,
  warmUpSeconds = 30,
  idleSeconds = 60,
  tenants = 160,
  cacheSize = 64,
  writers = 8,
  remappedTenants = 4,
  mcp = true,
  serverRoot,
}: ChurnSoakOptions): Promise<ChurnSoakResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-churn-'));
  // The server's defaults, set explicitly: the descriptor bound counts connections per worker.
  const databaseWorkers = availableParallelism();
  const environment = {
    MEMORY_TENANT_CACHE_SIZE: String(cacheSize),
    MEMORY_DATABASE_WORKERS: String(databaseWorkers),
  };
  const server = await startServerProcess(dataDir, apiKey, { environment, serverRoot });
  let phase = 'started';
  const sampler = new ProcessSampler(server.pid, SAMPLE_INTERVAL_MS, () => phase);
  const target: Target = { url: server.url, apiKey };
  const tally = new OutcomeTally();
  // The process sampled is the server itself: startServerProcess runs node on the server's entry, no launcher.
  const commandLine = commandLineOf(server.pid);
  try {
    sampler.sample();
    process.stderr.write(`churn soak: server pid ${server.pid} (${commandLine.slice(0, 80)}...)\n`);
    const seed = mcp ? await seedMcpTenants(target) : null;
    if (seed !== null) process.stderr.write(`  seeded the MCP tenants in ${seed.seconds} s\n`);
    phase = 'warm-up';
    sampler.sample();
    let loading = true;
    const running = () => loading && sampler.exitedAtSeconds === null;
    const cycled = Array.from({ length: tenants }, (_, index) => `churn-${String(index).padStart(3, '0')}`);
    const remapped = Array.from({ length: remappedTenants }, (_, index) => `churn-remap-${index}`);
    const shapes = seed === null ? [] : largestBatches(seed);
    const traffic = Promise.all([
      cycleTenants(target, tally, { tenants: cycled, workers: writers, running }),
      reprovisionTenants(target, tally, { tenants: remapped, running }),
      shapes.length === 0 ? Promise.resolve([]) : sendLargestBatches(target, tally, { shapes, running }),
    ]);
    process.stderr.write(
      `  warm-up ${warmUpSeconds} s or more, then ${seconds} s measured, then ${idleSeconds} s idle\n`,
    );
    const warmUpStarted = performance.now();
    await sleep(warmUpSeconds);
    const cycledWrites = () => Object.values(tally.counts[CYCLED_ADD] ?? {}).reduce((sum, count) => sum + count, 0);
    while (running() && cycledWrites() < tenants && elapsedSeconds(warmUpStarted) < warmUpSeconds * WARM_UP_CAP)
      await sleep(1);
    const warmedUpSeconds = elapsedSeconds(warmUpStarted);
    phase = 'load';
    sampler.sample();
    await sleep(seconds);
    loading = false;
    const [, remaps, mcpBatches] = await traffic;
    sampler.sample();
    phase = 'idle';
    await sleep(idleSeconds);
    sampler.sample();
    sampler.stop();
    return {
      serverRoot: serverRoot ?? 'this checkout',
      pid: server.pid,
      commandLine,
      seconds,
      warmUpSeconds: warmedUpSeconds,
      idleSeconds,
      tenants,
      cacheSize,
      writers,
      remappedTenants,
      databaseWorkers,
      seed,
      remaps,
      mcpBatches,
      outcomes: tally.counts,
      samples: sampler.samples,
      serverExitedAtSeconds: sampler.exitedAtSeconds,
      ...judgeChurn({
        samples: sampler.samples,
        tally,
        cacheSize,
        databaseWorkers,
        mcpBatches,
        exitedAtSeconds: sampler.exitedAtSeconds,
      }),
    };
  } finally {
    sampler.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
