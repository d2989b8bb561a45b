import { printChurnSoak } from './churn-report.js';
import type { ChurnSoakResult } from './churn-soak.js';
import type { EncoderReport } from './encoder-writes.js';
import type { EvalReplayReport } from './eval-replay.js';
import { foregroundLoads } from './foreground-report.js';
import { HEALTH_PROBE_RATE } from './health-under-load.js';
import type { IndexingRate } from './index-queue.js';
import type { LoadResult } from './load.js';
import type { SoakResult } from './soak.js';
import type { SqldProcessesReport } from './sqld-processes.js';
import { printTenantSweep } from './sweep-report.js';
import { type TargetRow, targetCell } from './targets.js';
import type { TenantSweepReport } from './tenant-sweep.js';
import type { TransferReport } from './transfer.js';

/** What one size measured (the JSON result keeps it whole). */
export interface SizeReport {
  memories: number;
  seedSeconds: number;
  vectorsSeconds: number | null;
  loads: LoadResult[];
  /** The background indexing after the `memories/add` run (local/hash-384). */
  hashIndexing: IndexingRate | null;
  evalReplay: EvalReplayReport | null;
  encoder: EncoderReport | null;
  rawFts: { p50: number; p95: number; queries: number } | null;
  /** `memory-service export` of the data dir and `import` into an empty one. */
  transfer: TransferReport | null;
  peakRssMb: number;
}

function loadRow(load: LoadResult, memories: number, floor: LoadResult | undefined): string {
  const ratio = floor && !load.name.startsWith('GET /health') ? (load.p50 / floor.p50).toFixed(2) : '—';
  return `| ${load.name} | ${load.connections} | ${load.requestsPerSecond} | ${load.okPerSecond} | ${load.p50} | ${load.p95} | ${load.p99} | ${ratio} | ${load.errors + load.non2xx} | ${targetCell(load, memories)} |`;
}

function indexingLine(label: string, indexing: IndexingRate | null): string {
  if (indexing === null) return `${label}: no pending count in the observability report (not measured)`;
  const rate = indexing.perSecond === null ? 'no backlog to time' : `${indexing.perSecond}/s`;
  const endToEnd = indexing.endToEndPerSecond === null ? '' : `, end to end ${indexing.endToEndPerSecond}/s`;
  return `${label}: backlog ${indexing.backlogAtLoadEnd} when the load ended, ${indexing.drained} indexed in ${indexing.drainSeconds} s = ${rate} (${indexing.complete ? 'drained' : 'TIME LIMIT'}${endToEnd}; read from ${indexing.field})`;
}

function printSize(report: SizeReport): void {
  const floor = (connections: number) =>
    report.loads.find((load) => load.name === 'GET /health (floor)' && load.connections === connections);
  const vectors =
    report.vectorsSeconds === null
      ? ', no vectors (--no-vectors, or no backfill route)'
      : `, vectors ${report.vectorsSeconds.toFixed(1)} s`;
  console.log(
    `\n${report.memories.toLocaleString('en')} memories (seed ${report.seedSeconds.toFixed(1)} s${vectors}), server peak RSS ${report.peakRssMb} MB`,
  );
  console.log('| run | conc. | req/s | 2xx/s | p50 ms | p95 ms | p99 ms | p50 / health p50 | errors | target |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const load of report.loads) console.log(loadRow(load, report.memories, floor(load.connections) ?? floor(16)));
  if (report.encoder !== null)
    for (const load of [report.encoder.add, ...foregroundLoads(report.encoder)])
      console.log(loadRow(load, report.memories, undefined));
  if (report.rawFts !== null)
    console.log(
      `| raw FTS5 query (floor, in-process) | 1 | — | — | ${report.rawFts.p50} | ${report.rawFts.p95} | — | — | 0 | |`,
    );
  if (report.loads.some((load) => load.name.endsWith('(under load)')))
    console.log(`(under load: 16 hybrid + 8 add clients, and /health probed by 1 client at ${HEALTH_PROBE_RATE}/s)`);
  if (report.hashIndexing !== null)
    console.log(indexingLine('background indexing after memories/add (local/hash-384)', report.hashIndexing));
  if (report.encoder !== null) {
    const encoder = report.encoder;
    console.log(
      `encoder ${encoder.model}: server start and warm-up ${encoder.warmUpSeconds} s, peak RSS ${encoder.peakRssMb} MB`,
    );
    console.log(indexingLine(`background indexing (${encoder.model})`, encoder.indexing));
    const lag = encoder.lag;
    if (lag !== null)
      console.log(
        `lag from an acknowledged add to its indexing (${encoder.model}, ${lag.rate} adds/s for ${lag.seconds} s, ${lag.acknowledged} acknowledged, queue polled every ${lag.pollMs} ms): p50 ${lag.p50Ms} / p95 ${lag.p95Ms} / max ${lag.maxMs} ms${lag.unindexed > 0 ? `, ${lag.unindexed} still queued at the end` : ''}`,
      );
  }
  if (report.transfer !== null) {
    const transfer = report.transfer;
    const rate = (seconds: number) => Math.round(transfer.records / seconds).toLocaleString('en');
    console.log(
      `export and import (${transfer.records.toLocaleString('en')} records, ${transfer.memories.toLocaleString('en')} memories, ${(transfer.bytes / 1024 / 1024).toFixed(1)} MiB, no vectors): export ${transfer.exportSeconds.toFixed(1)} s = ${rate(transfer.exportSeconds)} records/s, import ${transfer.importSeconds.toFixed(1)} s = ${rate(transfer.importSeconds)} records/s (checked, then written)`,
    );
  }
  if (report.evalReplay !== null) {
    const replay = report.evalReplay;
    const health = replay.health;
    console.log(
      `eval replay (${replay.bytes.toLocaleString('en')} bytes): ${replay.status}${replay.errorCode === null ? '' : ` ${replay.errorCode}`} in ${replay.milliseconds} ms; /health meanwhile (${health.probes} sequential probes): p50 ${health.p50} / p95 ${health.p95} / p99 ${health.p99} / max ${health.max} ms`,
    );
  }
}

function printSqld(sqld: SqldProcessesReport): void {
  console.log(
    `\nOne vs two server processes on one sqld (${sqld.seeded} memories added through the API in ${sqld.seedSeconds} s, ${sqld.embeddingModel}; lexical context/get and memories/add in turn, ${sqld.connections} clients split across the processes)`,
  );
  console.log('| processes | req/s | 2xx/s | p50 ms | p95 ms | p99 ms | errors | peak RSS MB |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const run of sqld.runs)
    console.log(
      `| ${run.processes} | ${run.requestsPerSecond} | ${run.okPerSecond} | ${run.p50} | ${run.p95} | ${run.p99} | ${run.errors + run.non2xx} | ${run.peakRssMb.join(' + ')} |`,
    );
}

function printTargets(targets: TargetRow[]): void {
  if (targets.length === 0) return;
  console.log('\nTargets (reported, not asserted)');
  console.log('| part | memories | target | measured | verdict |');
  console.log('| --- | ---: | --- | --- | --- |');
  for (const row of targets)
    console.log(
      `| ${row.part} | ${row.memories?.toLocaleString('en') ?? '—'} | ${row.target} | ${row.measured} | ${row.verdict} |`,
    );
}

/** Prints the run's tables: one per size, the sqld comparison, the soaks, the tenant sweep and the targets. */
export function printReport(
  reports: SizeReport[],
  sqld: SqldProcessesReport | null,
  soak: SoakResult | null,
  targets: TargetRow[],
  churn: ChurnSoakResult | null = null,
  sweep: TenantSweepReport | null = null,
): void {
  for (const report of reports) printSize(report);
  if (sqld !== null) printSqld(sqld);
  if (soak) {
    console.log(
      `\nsoak: ${soak.seconds} s mixed load, ${soak.requests} requests, ${soak.errors} errors, RSS over the last third ${soak.rssStartMb} -> ${soak.rssEndMb} MB (peak ${soak.peakRssMb} MB; every 5 s: ${soak.samples.join(' ')}), ${soak.flat ? 'flat' : 'GROWING'}`,
    );
  }
  if (churn !== null) printChurnSoak(churn);
  if (sweep !== null) printTenantSweep(sweep);
  printTargets(targets);
}
