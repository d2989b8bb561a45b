import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parsePrometheusText, sampleValue } from '../../packages/server/test/prometheus-text.js';
import { addMany } from './add-many.js';
import { type LoadResult, runLoad } from './load.js';
import { ProcessSampler } from './process-sampler.js';
import { generateMemories, generateQueries } from './seed-data.js';
import { startServerProcess } from './server-process.js';

/** How the tenant sweep runs (`pnpm bench --only "tenant sweep"`). */
export interface TenantSweepOptions {
  apiKey: string;
  /** Tenants the clients touch in turn: many more than the open-database cache holds. */
  tenants: number;
  clients: number;
  /** Memories written to each tenant before the sweep. */
  memoriesPerTenant: number;
  seconds: number;
  /** Node options of the server process (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** The `packages/server` folder to run (another checkout's, to compare with the code before a change). */
  serverRoot?: string;
}

/** A process reading over the sweep: at its start, its peak, at its end. */
interface Reading {
  start: number;
  peak: number;
  end: number;
}

/** What the sweep measured. */
export interface TenantSweepReport {
  tenants: number;
  clients: number;
  cacheSize: number;
  memoriesPerTenant: number;
  seedSeconds: number;
  /** Lexical `context/get`, each request to the next tenant in turn. */
  load: LoadResult;
  /**
   * The same requests over as many tenants as half the cache holds, so every database stays open (hit rate ~1): what
   * the requests cost with no database opened or closed, the floor the sweep's latency can reach on this machine.
   */
  openFloor: LoadResult;
  /** The open-database cache over the sweep (the server's counters, read before and after). */
  cache: { hits: number; misses: number; evictions: number; hitRate: number };
  descriptors: Reading;
  rssMb: Reading;
}

/** The server's open-database cache size during the sweep (its default, set explicitly). */
const CACHE_SIZE = 64;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
/** How long the floor (every database open) is measured. */
const FLOOR_SECONDS = 20;

async function cacheCounters(url: string): Promise<{ hits: number; misses: number; evictions: number }> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const families = parsePrometheusText(await response.text());
  const lookups = (outcome: string) => sampleValue(families, 'memory_tenant_cache_lookups_total', { outcome }) ?? 0;
  return {
    hits: lookups('hit'),
    misses: lookups('miss'),
    evictions: sampleValue(families, 'memory_tenant_cache_evictions_total') ?? 0,
  };
}

function reading(values: number[]): Reading {
  return { start: values[0] ?? Number.NaN, peak: Math.max(...values), end: values.at(-1) ?? Number.NaN };
}

/**
 * Issue 27's many-tenant row: `tenants` tenants (more than the server's open-database cache of {@link CACHE_SIZE}),
 * each given `memoriesPerTenant` memories through the API, then touched in turn by `clients` clients with lexical
 * `context/get` for `seconds`: touched in turn, the least recently used database is always the next one asked for,
 * the cache's worst case. Reports latency, errors, the cache's hit rate and the server's descriptors and RSS; then the
 * same requests for FLOOR_SECONDS over tenants that all stay open, the latency the sweep would have with no open.
 */
export async function runTenantSweep(options: TenantSweepOptions): Promise<TenantSweepReport> {
  const { apiKey, tenants, clients } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-bench-sweep-'));
  const server = await startServerProcess(dataDir, apiKey, {
    nodeArgs: options.nodeArgs ?? [],
    ...(options.serverRoot === undefined ? {} : { serverRoot: options.serverRoot }),
    environment: {
      MEMORY_TENANT_CACHE_SIZE: String(CACHE_SIZE),
      // 0: no tenant quota (its default, 1,000, is below the sweep's tenants).
      MEMORY_TENANT_QUOTA: '0',
      MEMORY_ADMIN_TOKEN: ADMIN_TOKEN,
    },
  });
  let phase = 'seed';
  const sampler = new ProcessSampler(server.pid, 1000, () => phase);
  try {
    const contents = Array.from(generateMemories(500, 31), (memory) => memory.content);
    let written = 0;
    const started = performance.now();
    process.stderr.write(`  tenant sweep: ${options.memoriesPerTenant} memories in each of ${tenants} tenants\n`);
    await addMany(server.url, apiKey, {
      count: tenants * options.memoriesPerTenant,
      concurrency: clients,
      body: () => {
        const index = written++;
        return {
          content: `${contents[index % contents.length]} (tenant ${index % tenants})`,
          scope: { tenantId: `sweep-${index % tenants}` },
        };
      },
    });
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const queries = generateQueries(200, 31);
    /** Lexical `context/get` to `count` tenants in turn, `clients` at a time, for `seconds`. */
    const sweepLoad = (name: string, count: number, seconds: number) => {
      let asked = 0;
      return runLoad(
        name,
        server.url,
        apiKey,
        {
          method: 'POST',
          path: '/api/sdk/v1/context/get',
          body: () => {
            const index = asked++;
            return {
              query: queries[index % queries.length],
              strategy: 'lexical',
              scope: { tenantId: `sweep-${index % count}` },
            };
          },
        },
        { connections: clients, seconds },
      );
    };
    phase = 'sweep';
    const before = await cacheCounters(server.url);
    const first = sampler.sample();
    process.stderr.write(`  tenant sweep: lexical context/get over ${tenants} tenants in turn, c=${clients}\n`);
    const load = await sweepLoad('context/get lexical (tenants in turn)', tenants, options.seconds);
    const after = await cacheCounters(server.url);
    const last = sampler.sample();
    const swept = sampler.samples.filter((sample) => sample.phase === 'sweep');
    if (first !== null) swept.unshift(first);
    if (last !== null) swept.push(last);
    phase = 'floor';
    const floorTenants = Math.min(tenants, CACHE_SIZE / 2);
    process.stderr.write(`  tenant sweep: the same over ${floorTenants} tenants, every database open\n`);
    const openFloor = await sweepLoad('context/get lexical (databases open)', floorTenants, FLOOR_SECONDS);
    const hits = after.hits - before.hits;
    const misses = after.misses - before.misses;
    return {
      tenants,
      clients,
      cacheSize: CACHE_SIZE,
      memoriesPerTenant: options.memoriesPerTenant,
      seedSeconds,
      load,
      openFloor,
      cache: {
        hits,
        misses,
        evictions: after.evictions - before.evictions,
        hitRate: hits + misses === 0 ? Number.NaN : Math.round((hits / (hits + misses)) * 1000) / 1000,
      },
      descriptors: reading(swept.map((sample) => sample.descriptors)),
      rssMb: reading(swept.map((sample) => sample.rssMb)),
    };
  } finally {
    sampler.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
