import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBuiltInRegistry } from '../../packages/server/src/embeddings/default-registry.js';
import { retrieve } from '../../packages/server/src/retrieval/retrieve.js';
import { contextRetrieval, openBenchTenant } from './hybrid-tree.js';
import { generateQueries } from './seed-data.js';

/**
 * The process's resident memory and main-thread heap as `retrieve()` calls go by, in-process on a copy of a workspace
 * database, with their latency and the process's CPU time: run it under the V8 flags to compare (e.g. `node
 * --max-semi-space-size=8 --heap-growing-percent=50 --import tsx bench/perf/heap-growth.ts ...`), one after the other
 * A-B-B-A on a machine whose speed drifts. The first block of calls is left out of the latency (warm-up). A benchmark,
 * not a test.
 *
 * node --import tsx bench/perf/heap-growth.ts --database <workspace.db> --strategy hybrid --model local/hash-384
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    strategy: { type: 'string', default: 'hybrid' },
    model: { type: 'string', default: 'local/hash-384' },
    /** Calls per block; memory is printed after each of four blocks. */
    block: { type: 'string', default: '150' },
  },
});
if (values.database === undefined) throw new Error('--database <workspace.db> is needed');
const strategy = values.strategy === 'lexical' ? 'lexical' : 'hybrid';
const block = Number(values.block);

const folder = mkdtempSync(path.join(tmpdir(), 'heap-growth-'));
const file = path.join(folder, 'workspace.db');
copyFileSync(path.resolve(values.database), file);
const { database, tenant } = await openBenchTenant(file);
const megabytes = (bytes: number) => Math.round(bytes / 1_048_576);
const memory = (label: string) => {
  const usage = process.memoryUsage();
  console.log(
    `${label}: RSS ${megabytes(usage.rss)} MB, main heap ${megabytes(usage.heapTotal)} MB reserved / ` +
      `${megabytes(usage.heapUsed)} MB used, external ${megabytes(usage.external)} MB`,
  );
};
try {
  const registry = createBuiltInRegistry();
  const queries = generateQueries(block * 4, 7);
  const times: number[] = [];
  memory('opened');
  for (let round = 0; round < 4; round++) {
    for (const query of queries.slice(round * block, (round + 1) * block)) {
      const started = performance.now();
      await retrieve(tenant, contextRetrieval(query, strategy, values.model, registry));
      if (round > 0) times.push(performance.now() - started);
    }
    memory(`after ${(round + 1) * block} ${strategy} calls`);
  }
  const sorted = times.sort((left, right) => left - right);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
  const cpu = process.cpuUsage();
  console.log(
    `latency of the last ${sorted.length}: p50 ${at(0.5).toFixed(1)} / p95 ${at(0.95).toFixed(1)} ms; ` +
      `process CPU of the whole run (the copy and the open included) ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
  );
} finally {
  database.close();
  rmSync(folder, { recursive: true, force: true });
}
process.exit(0);
