import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addMany } from './add-many.js';
import { pollQueueUntilDrained, readQueue } from './index-queue.js';
import { combineRuns, type LoadResult, type RequestShape, runLoadDetailed } from './load.js';
import { BENCH_EMBEDDING_MODEL, type ServerProcess, startServerProcess } from './server-process.js';
import { startSqld } from './sqld-process.js';

/** One vs two server processes sharing one libSQL server (sqld), under the same total load. */
export interface SqldProcessesReport {
  embeddingModel: string;
  seeded: number;
  seedSeconds: number;
  /** Total clients, split evenly across the processes. */
  connections: number;
  /** One row per process count: rates summed over the processes, latencies merged. */
  runs: Array<LoadResult & { processes: number; peakRssMb: number[] }>;
}

/**
 * Starts sqld (namespaces `control` and `workspace`), one server process on it, seeds `seedCount` memories through
 * the add API, and runs lexical `context/get` and `memories/add` in turn on 16 clients; then starts a second process
 * and runs the same load split 8 + 8 (one autocannon per process, at the same time). Everything on 127.0.0.1.
 */
export async function measureSqldProcesses(options: {
  apiKey: string;
  seconds: number;
  seedCount: number;
  shapes: { context: RequestShape; add: RequestShape };
  connections?: number;
}): Promise<SqldProcessesReport> {
  const { apiKey, connections = 16 } = options;
  const sqld = await startSqld();
  const servers: ServerProcess[] = [];
  const dataDirs: string[] = [];
  try {
    await sqld.createNamespace('control');
    await sqld.createNamespace('workspace');
    const environment = {
      MEMORY_CONTROL_DB_URL: sqld.url,
      MEMORY_CONTROL_DB_NAMESPACE: 'control',
      MEMORY_DEFAULT_DB_URL: sqld.url,
      MEMORY_DEFAULT_DB_NAMESPACE: 'workspace',
      // The processes share attach-token encryption, as a deployment of several processes must.
      MEMORY_SECRET_KEY: '7a'.repeat(32),
    };
    const launch = async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-bench-sqld-server-'));
      dataDirs.push(dataDir);
      const server = await startServerProcess(dataDir, apiKey, { environment });
      servers.push(server);
      return server;
    };
    const first = await launch();
    process.stderr.write(`  sqld: seeding ${options.seedCount} memories through the add API...\n`);
    const seedStarted = performance.now();
    const seeded = await addMany(first.url, apiKey, {
      count: options.seedCount,
      concurrency: 8,
      body: options.shapes.add.body ?? (() => ({})),
    });
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    // Indexing left from the seeding would otherwise run inside the first measurement only.
    if ((await readQueue(first.url, apiKey).catch(() => null)) !== null)
      await pollQueueUntilDrained(first.url, apiKey, { baseline: 0, timeoutMs: 120_000 });
    const shapes = [options.shapes.context, options.shapes.add];
    const runs: SqldProcessesReport['runs'] = [];
    for (const processes of [1, 2]) {
      while (servers.length < processes) await launch();
      const name = `sqld ${processes} process${processes === 1 ? '' : 'es'}`;
      process.stderr.write(`  ${name} c=${connections}\n`);
      const perProcess = await Promise.all(
        servers.map((server) =>
          runLoadDetailed(name, server.url, apiKey, shapes, {
            connections: connections / processes,
            seconds: options.seconds,
          }),
        ),
      );
      runs.push({
        ...combineRuns(name, perProcess),
        processes,
        peakRssMb: servers.map((server) => Math.round(server.peakRssMb())),
      });
    }
    return { embeddingModel: BENCH_EMBEDDING_MODEL, seeded, seedSeconds, connections, runs };
  } finally {
    for (const server of servers) await server.stop();
    await sqld.stop();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  }
}
