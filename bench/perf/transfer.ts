import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../packages/server/src/cli.js';

/** One export of a data dir and its import into an empty one, with `memory-service export` and `import`. */
export interface TransferReport {
  memories: number;
  records: number;
  bytes: number;
  exportSeconds: number;
  importSeconds: number;
}

async function run(argv: string[], dataDir: string): Promise<void> {
  let stderr = '';
  const code = await runCli(argv, {
    env: { MEMORY_DATA_DIR: dataDir, MEMORY_LOG_LEVEL: 'silent' },
    stdout: { write: () => true },
    stderr: { write: (text: string) => (stderr += text) },
  });
  if (code !== 0) throw new Error(`memory-service ${argv[0]} failed: ${stderr.trim().split('\n').at(-1)}`);
}

/**
 * Exports `dataDir` (a stopped server's) to a file and imports it into a fresh data dir, in this process as the
 * commands run: the export's and the import's rates (records per second; an import checks the whole file, then writes
 * it in one transaction per database and queues every memory for indexing).
 */
export async function measureTransfer(dataDir: string): Promise<TransferReport> {
  const folder = mkdtempSync(path.join(tmpdir(), 'memory-bench-transfer-'));
  try {
    const file = path.join(folder, 'export.jsonl');
    let started = performance.now();
    await run(['export', file], dataDir);
    const exportSeconds = (performance.now() - started) / 1000;
    const text = readFileSync(file, 'utf8');
    const trailer = JSON.parse(text.slice(text.trimEnd().lastIndexOf('\n') + 1)) as {
      records: number;
      counts: { memory: number };
    };
    started = performance.now();
    await run(['import', file], path.join(folder, 'imported'));
    const importSeconds = (performance.now() - started) / 1000;
    return {
      memories: trailer.counts.memory,
      records: trailer.records,
      bytes: statSync(file).size,
      exportSeconds,
      importSeconds,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
