import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addMany } from './add-many.js';
import { type ForegroundReport, mixedTenantLoad, pendingJobs, singleClientReads } from './foreground-first.js';
import { type IndexLag, measureIndexLag } from './index-lag.js';
import { drainAfterLoad, type IndexingRate, pollQueueUntilDrained, readQueue } from './index-queue.js';
import { type LoadResult, type RequestShape, runLoad } from './load.js';
import { BENCH_EMBEDDING_MODEL, DEFAULT_ENCODER_MODEL, startServerProcess } from './server-process.js';

/** The encoder runs: writes acknowledged with the default sentence encoder, then the background indexing rate. */
export interface EncoderReport {
  model: string;
  memories: number;
  /** Server start and warm-up (the model loads on first use). */
  warmUpSeconds: number;
  add: LoadResult;
  /** Null when the server reports no pending count (no queue fields in its observability report). */
  indexing: IndexingRate | null;
  /** The lag from an acknowledged add to its indexing while adds arrive at a steady rate (null: not measured). */
  lag: IndexLag | null;
  /** Reads beside background indexing and beside writes (null: not measured). */
  foreground: ForegroundReport | null;
  peakRssMb: number;
}

/** Index jobs the foreground reads are measured beside (issue 27: "a backlog of 20,000"). */
export const FOREGROUND_BACKLOG = 20_000;
/** Adds per second, and seconds, of the lag measurement. */
export const LAG_RATE = 100;
const LAG_SECONDS = 30;

/**
 * Starts a server process with `MEMORY_EMBEDDING_MODEL` set to the default encoder on a copy of `workspaceFile` (a
 * workspace embedded with the bench's model) and warms the model up. Then, each run `seconds` long: lexical and hybrid
 * `context/get` at 1 client and hybrid at 8 with the indexer idle; the lag from an acknowledged add to its indexing
 * while {@link LAG_RATE} adds/s arrive, from an empty queue (then the queue is let drain, up to `indexTimeoutSeconds`);
 * `memories/add` with 8 clients (topped up to a backlog of {@link FOREGROUND_BACKLOG} index jobs); the two reads again
 * while the indexer works that backlog; the indexing rate, polling the observability queue until the indexer is back
 * where it started (or `indexTimeoutSeconds` passed); and last 8 hybrid readers beside 8 writers.
 */
export async function measureEncoderWrites(options: {
  workspaceFile: string;
  memories: number;
  apiKey: string;
  seconds: number;
  indexTimeoutSeconds: number;
  addBody: () => unknown;
  /** The reads of the foreground runs; without them only the writes and the indexing are measured. */
  reads?: { lexical: RequestShape; hybrid: RequestShape };
  model?: string;
  /** The `packages/server` folder whose built server runs (default this checkout's). */
  serverRoot?: string;
}): Promise<EncoderReport> {
  const { apiKey, model = DEFAULT_ENCODER_MODEL } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-bench-encoder-'));
  try {
    copyFileSync(options.workspaceFile, path.join(dataDir, 'workspace.db'));
    const started = performance.now();
    const server = await startServerProcess(dataDir, apiKey, {
      embeddingModel: model,
      ...(options.serverRoot === undefined ? {} : { serverRoot: options.serverRoot }),
    });
    try {
      // The workspace's memories have vectors of the bench's model, not the encoder's: readings counted for it cost
      // what they cost a tenant whose model never changed (`readQueue`).
      const coverageModel = BENCH_EMBEDDING_MODEL;
      const before = await readQueue(server.url, apiKey, coverageModel).catch(() => null);
      await addMany(server.url, apiKey, { count: 16, concurrency: 8, body: options.addBody });
      const baseline = before?.count ?? 0;
      if (before !== null)
        await pollQueueUntilDrained(server.url, apiKey, { baseline, timeoutMs: 120_000, coverageModel });
      const warmUpSeconds = Math.round((performance.now() - started) / 100) / 10;
      const { reads } = options;
      const idle =
        reads === undefined
          ? null
          : await singleClientReads(server.url, apiKey, 'indexer idle', reads, options.seconds);
      const soloReads =
        reads === undefined
          ? null
          : await runLoad('context/get hybrid (alone)', server.url, apiKey, reads.hybrid, {
              connections: 8,
              seconds: options.seconds,
            });
      // Waits for the queue to be back where it started, up to the time limit (the runs after it start from there).
      const settle = () =>
        pollQueueUntilDrained(server.url, apiKey, {
          baseline,
          timeoutMs: options.indexTimeoutSeconds * 1000,
          coverageModel,
        });
      let lag: IndexLag | null = null;
      if (before !== null) {
        // From an empty queue: the lag of a steady stream of adds, not of a backlog left by the runs before it.
        process.stderr.write(`  index lag at ${LAG_RATE} adds/s for ${LAG_SECONDS} s\n`);
        lag = await measureIndexLag(server.url, apiKey, {
          rate: LAG_RATE,
          seconds: LAG_SECONDS,
          body: options.addBody,
          coverageModel,
          // Long enough for the 3,000 adds to be indexed at a third of their arrival rate, so that none is cut short.
          settleSeconds: 120,
        });
        await settle();
      }
      process.stderr.write(`  memories/add (encoder ${model}) c=8\n`);
      const loadStarted = performance.now();
      const addShape: RequestShape = { method: 'POST', path: '/api/sdk/v1/memories/add', body: options.addBody };
      const add = await runLoad(`memories/add (encoder ${model})`, server.url, apiKey, addShape, {
        connections: 8,
        seconds: options.seconds,
      });
      let backlog: Pick<ForegroundReport, 'backlog' | 'backlogAtStart' | 'backlogAtEnd'> | null = null;
      if (reads !== undefined && before !== null) {
        const missing = FOREGROUND_BACKLOG - ((await pendingJobs(server.url, apiKey, coverageModel)) - baseline);
        if (missing > 0) await addMany(server.url, apiKey, { count: missing, concurrency: 8, body: options.addBody });
        const backlogAtStart = (await pendingJobs(server.url, apiKey, coverageModel)) - baseline;
        const busy = await singleClientReads(server.url, apiKey, 'indexer backlog', reads, options.seconds);
        const backlogAtEnd = (await pendingJobs(server.url, apiKey, coverageModel)) - baseline;
        backlog = { backlog: busy, backlogAtStart, backlogAtEnd };
      }
      process.stderr.write(`  background indexing (encoder ${model}), up to ${options.indexTimeoutSeconds} s\n`);
      const indexing =
        before === null
          ? null
          : await drainAfterLoad(server.url, apiKey, {
              baseline,
              loadStartedMs: loadStarted,
              acknowledged: add.ok,
              timeoutMs: options.indexTimeoutSeconds * 1000,
              coverageModel,
            });
      if (before !== null) await settle();
      const mixed =
        reads === undefined
          ? null
          : await mixedTenantLoad(server.url, apiKey, { hybrid: reads.hybrid, add: addShape }, options.seconds);
      const foreground =
        idle === null || soloReads === null || backlog === null || mixed === null
          ? null
          : { idle, ...backlog, soloReads, mixedReads: mixed.reads, mixedAdds: mixed.adds };
      return {
        model,
        memories: options.memories,
        warmUpSeconds,
        add,
        indexing,
        lag,
        foreground,
        peakRssMb: Math.round(server.peakRssMb()),
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
