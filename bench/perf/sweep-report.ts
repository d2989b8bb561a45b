import type { TargetRow } from './target-row.js';
import type { TenantSweepReport } from './tenant-sweep.js';

/** Issue 27's target for lexical `context/get` while clients touch more tenants than the cache holds. */
const SWEEP_P95_TARGET_MS = 50;

/**
 * Whether a reading stayed bounded over the sweep: its end within 10% (and a small slack) of its start. The cache
 * closes a database for each one it opens, so descriptors and RSS hover; a leak climbs with every tenant touched.
 */
function bounded(reading: TenantSweepReport['descriptors'], slack: number): boolean {
  return reading.end <= reading.start * 1.1 + slack;
}

/** The sweep's rows of the targets table. */
export function sweepTargetRows(sweep: TenantSweepReport): TargetRow[] {
  const part = (what: string) =>
    `${sweep.tenants.toLocaleString('en')} tenants in turn, ${sweep.clients} clients: ${what}`;
  const { load, descriptors, rssMb, cache } = sweep;
  const errors = load.errors + load.non2xx;
  const floor = sweep.openFloor;
  const floorErrors = floor.errors + floor.non2xx;
  const fdsBounded = bounded(descriptors, 16);
  const rssBounded = bounded(rssMb, 32);
  return [
    {
      part: part('lexical `context/get` p95'),
      memories: null,
      target: `<= ${SWEEP_P95_TARGET_MS} ms`,
      measured: `p50 ${load.p50} / p95 ${load.p95} / p99 ${load.p99} ms, ${load.okPerSecond} req/s`,
      verdict: load.p95 <= SWEEP_P95_TARGET_MS ? 'met' : 'missed',
    },
    {
      part: part('the same requests with every database open (the floor)'),
      memories: null,
      target: 'reported',
      measured: `p50 ${floor.p50} / p95 ${floor.p95} / p99 ${floor.p99} ms, ${floor.okPerSecond} req/s, ${floorErrors} errors`,
      verdict: floorErrors === 0 && floor.requests > 0 ? 'met' : 'missed',
    },
    {
      part: part('errors'),
      memories: null,
      target: '0',
      measured: `${errors} of ${load.requests}`,
      verdict: errors === 0 && load.requests > 0 ? 'met' : 'missed',
    },
    {
      part: part('descriptors and RSS bounded'),
      memories: null,
      target: 'end within 10% of start',
      measured: `descriptors ${descriptors.start} -> ${descriptors.end} (peak ${descriptors.peak}), RSS ${rssMb.start} -> ${rssMb.end} MB (peak ${rssMb.peak})`,
      verdict: fdsBounded && rssBounded ? 'met' : 'missed',
    },
    {
      part: part(`open-database cache hit rate (cache of ${sweep.cacheSize})`),
      memories: null,
      target: 'reported',
      measured: `${cache.hitRate} (${cache.hits} hits, ${cache.misses} opens, ${cache.evictions} closes)`,
      verdict: Number.isNaN(cache.hitRate) ? 'not measured' : 'met',
    },
  ];
}

/** Prints the sweep's setup line (its figures are in the targets table). */
export function printTenantSweep(sweep: TenantSweepReport): void {
  console.log(
    `\ntenant sweep: ${sweep.memoriesPerTenant} memories written to each of ${sweep.tenants.toLocaleString('en')} tenants in ${sweep.seedSeconds} s (${sweep.clients} clients), then lexical context/get to each tenant in turn for ${sweep.load.requests} requests over an open-database cache of ${sweep.cacheSize}`,
  );
}
