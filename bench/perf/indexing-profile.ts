import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../../packages/server/src/app.js';
import { closeServices, createServices } from '../../packages/server/src/bootstrap.js';
import { loadConfig } from '../../packages/server/src/config.js';
import type { EmbeddingRegistry } from '../../packages/server/src/embeddings/registry.js';
import { indexBatch } from '../../packages/server/src/indexing/index-batch.js';
import { DEFAULT_OWNER_ID } from '../../packages/server/src/store/control-store.js';
import type { Database } from '../../packages/server/src/store/database.js';
import { claimIndexJobs } from '../../packages/server/src/store/index-jobs.js';
import { TenantDatabase } from '../../packages/server/src/tenancy/tenant-database.js';
import { generateUser } from '../retrieval/long-corpus/generate.js';
import { generateQueries } from './seed-data.js';

/**
 * Where the background indexer's time goes, stage by stage (not part of `pnpm bench`): copies a workspace database
 * (e.g. the data cache's `workspace-100000.db`), queues `--count` adds with indexing paused, then indexes them batch
 * by batch in this process and sums the time of each kind of statement and of the embedding calls.
 * `tsx bench/perf/indexing-profile.ts --workspace /tmp/bench-cache/workspace-100000.db --model local/hash-384`
 */
const { values } = parseArgs({
  options: {
    workspace: { type: 'string' },
    model: { type: 'string', default: 'local/hash-384' },
    count: { type: 'string', default: '512' },
    batch: { type: 'string', default: '64' },
    /** `short` (the default): one generated line each; `long`: the long corpus's chat messages (median ~1,200 characters). */
    texts: { type: 'string', default: 'short' },
  },
});
if (values.workspace === undefined) throw new Error('--workspace <file> is required');
const count = Number(values.count);
const batchSize = Number(values.batch);
const apiKey = `mem_${'5e'.repeat(32)}`;

/** The stage a statement belongs to, from its SQL. */
function stageOf(sql: string): string {
  if (sql.includes('vector_top_k')) return 'neighbour search (vector_top_k)';
  if (sql.includes('memories_fts MATCH')) return 'lexical neighbour search';
  if (sql.startsWith('UPDATE index_jobs')) return 'claim';
  return `other reads: ${sql.replace(/\s+/g, ' ').trim().slice(0, 60)}`;
}

const timings = new Map<string, { ms: number; calls: number }>();
function record(stage: string, ms: number): void {
  const entry = timings.get(stage) ?? { ms: 0, calls: 0 };
  entry.ms += ms;
  entry.calls += 1;
  timings.set(stage, entry);
}

/** The database with each statement timed by stage (`get` runs through `all`). */
function timed(database: Database): Database {
  return new Proxy(database, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'all' || property === 'run')
        return async (sql: string, args?: unknown) => {
          const started = performance.now();
          try {
            return await (value as (sql: string, args?: unknown) => Promise<unknown>).call(receiver, sql, args);
          } finally {
            record(stageOf(sql), performance.now() - started);
          }
        };
      if (property === 'transaction')
        return async (statements: Array<{ sql: string }>) => {
          const started = performance.now();
          try {
            return await target.transaction(statements as never);
          } finally {
            const vectors = statements.some((statement) => /INSERT INTO memory_vectors/.test(statement.sql));
            record(
              vectors ? 'transaction: vectors (DiskANN inserts)' : 'transaction: graph and jobs',
              performance.now() - started,
            );
          }
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The registry with each embedding call timed. */
function timedRegistry(registry: EmbeddingRegistry): EmbeddingRegistry {
  return new Proxy(registry, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'embed') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          record('embedding calls', performance.now() - started);
        }
      };
    },
  });
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-indexing-profile-'));
copyFileSync(values.workspace, path.join(dataDir, 'workspace.db'));
const config = loadConfig(
  {},
  {
    dataDir,
    bootstrapApiKey: apiKey,
    logLevel: 'warn',
    embeddingModel: values.model,
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
  },
);
const services = await createServices(config);
try {
  services.indexing.pause();
  const app = createApp(services);
  const queries = generateQueries(200);
  const longTexts = values.texts === 'long' ? generateUser(1, 1, count).messages.map((message) => message.content) : [];
  for (let offset = 0; offset < count; offset += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, count - offset) }, async (_, index) => {
        const content =
          longTexts[offset + index] ??
          `profile memory ${offset + index} about ${queries[(offset + index) % queries.length]}`;
        const response = await app.request('/api/sdk/v1/memories/add', {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ content, tags: ['bench'] }),
        });
        if (!response.ok) throw new Error(`add answered ${response.status}`);
      }),
    );
  }
  const handle = await services.resolver.resolve(DEFAULT_OWNER_ID, null, new Date());
  const tenant = new TenantDatabase(handle.key, handle.tenantId, timed(handle.database));
  const registry = timedRegistry(services.embeddings);
  const batchContext = () => ({
    tenant,
    claimant: 'profile',
    registry,
    defaultModel: values.model,
    logger: services.logger,
    now: new Date(),
    nowMs: Date.now(),
  });
  // A warm-up batch (model load, statement preparation, page cache) is not counted.
  const warmUp = await claimIndexJobs(handle.database, 'profile', { nowMs: Date.now(), leaseMs: 600_000, limit: 8 });
  await indexBatch(batchContext(), warmUp);
  timings.clear();
  let indexed = 0;
  const started = performance.now();
  for (;;) {
    const jobs = await claimIndexJobs(tenant.database, 'profile', {
      nowMs: Date.now(),
      leaseMs: 600_000,
      limit: batchSize,
    });
    if (jobs.length === 0) break;
    await indexBatch(batchContext(), jobs);
    indexed += jobs.length;
  }
  const totalMs = performance.now() - started;
  console.log(
    `${indexed} memories indexed in batches of ${batchSize} (${values.model}): ${Math.round(totalMs)} ms = ${Math.round((indexed / totalMs) * 1000)}/s`,
  );
  let accounted = 0;
  for (const [stage, { ms, calls }] of [...timings].sort((left, right) => right[1].ms - left[1].ms)) {
    // The batch runs its steps one after another, so the stages add up.
    accounted += ms;
    console.log(
      `  ${stage.padEnd(40)} ${(ms / indexed).toFixed(2).padStart(7)} ms/memory  ${String(calls).padStart(6)} calls`,
    );
  }
  console.log(
    `  ${'unaccounted (JS, queues)'.padEnd(40)} ${((totalMs - accounted) / indexed).toFixed(2).padStart(7)} ms/memory`,
  );
} finally {
  await closeServices(services);
  rmSync(dataDir, { recursive: true, force: true });
}
