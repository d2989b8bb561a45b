import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addMany } from './add-many.js';
import { drainAfterLoad, type IndexingRate, pollQueueUntilDrained, readQueue } from './index-queue.js';
import { type LoadResult, runLoad } from './load.js';
import { DEFAULT_ENCODER_MODEL, startServerProcess } from './server-process.js';

/** The encoder runs: writes acknowledged with the default sentence encoder, then the background indexing rate. */
export interface EncoderReport {
  model: string;
  memories: number;
  /** Server start and warm-up (the model loads on first use). */
  warmUpSeconds: number;
  add: LoadResult;
  /** Null when the server reports no pending count (no queue fields in its observability report). */
  indexing: IndexingRate | null;
  peakRssMb: number;
}

/**
 * Starts a server process with `MEMORY_EMBEDDING_MODEL` set to the default encoder on a copy of `workspaceFile`,
 * warms the model up, loads `memories/add` with 8 clients for `seconds`, then polls the observability queue until the
 * indexer is back where it started (or `indexTimeoutSeconds` passed) and reports memories indexed per second.
 */
export async function measureEncoderWrites(options: {
  workspaceFile: string;
  memories: number;
  apiKey: string;
  seconds: number;
  indexTimeoutSeconds: number;
  addBody: () => unknown;
  model?: string;
}): Promise<EncoderReport> {
  const { apiKey, model = DEFAULT_ENCODER_MODEL } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-bench-encoder-'));
  try {
    copyFileSync(options.workspaceFile, path.join(dataDir, 'workspace.db'));
    const started = performance.now();
    const server = await startServerProcess(dataDir, apiKey, { embeddingModel: model });
    try {
      const before = await readQueue(server.url, apiKey).catch(() => null);
      await addMany(server.url, apiKey, { count: 16, concurrency: 8, body: options.addBody });
      const baseline = before?.count ?? 0;
      if (before !== null) await pollQueueUntilDrained(server.url, apiKey, { baseline, timeoutMs: 120_000 });
      const warmUpSeconds = Math.round((performance.now() - started) / 100) / 10;
      process.stderr.write(`  memories/add (encoder ${model}) c=8\n`);
      const loadStarted = performance.now();
      const add = await runLoad(
        `memories/add (encoder ${model})`,
        server.url,
        apiKey,
        { method: 'POST', path: '/api/sdk/v1/memories/add', body: options.addBody },
        { connections: 8, seconds: options.seconds },
      );
      process.stderr.write(`  background indexing (encoder ${model}), up to ${options.indexTimeoutSeconds} s\n`);
      const indexing =
        before === null
          ? null
          : await drainAfterLoad(server.url, apiKey, {
              baseline,
              loadStartedMs: loadStarted,
              acknowledged: add.ok,
              timeoutMs: options.indexTimeoutSeconds * 1000,
            });
      return {
        model,
        memories: options.memories,
        warmUpSeconds,
        add,
        indexing,
        peakRssMb: Math.round(server.peakRssMb()),
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
