import type { EncoderReport } from './encoder-writes.js';
import type { EvalReplayReport } from './eval-replay.js';
import { foregroundTargetRows } from './foreground-report.js';
import type { LoadResult } from './load.js';
import { DEFAULT_ENCODER_MODEL } from './server-process.js';
import type { TargetRow } from './target-row.js';

export type { TargetRow } from './target-row.js';

/** What the targets are judged on, per size. */
export interface TargetInput {
  memories: number;
  loads: LoadResult[];
  peakRssMb: number;
  seedSeconds: number;
  vectorsSeconds: number | null;
  encoder: EncoderReport | null;
  evalReplay: EvalReplayReport | null;
}

/** The name of the encoder's write run (its row in the tables). */
export const ENCODER_ADD_RUN = `memories/add (encoder ${DEFAULT_ENCODER_MODEL})`;

/** The size of issue 27's one-tenant run (`--sizes 1000000`): its targets are looser than at 100k. */
export const MILLION = 1_000_000;
const belowMillion = (memories: number) => memories < MILLION;
const atMillion = (memories: number) => memories >= MILLION;

/** A target on one load run, found by name and client count, at the sizes it `applies` to (every size if unset). */
interface LoadTarget {
  part: string;
  name: string;
  connections: number;
  target: string;
  applies?: (memories: number) => boolean;
  judge(load: LoadResult): { measured: string; met: boolean };
}

const p95AtMost = (limit: number) => (load: LoadResult) => ({ measured: `p95 ${load.p95} ms`, met: load.p95 <= limit });
const addsAtLeast = (rate: number) => (load: LoadResult) => ({
  measured: `${load.okPerSecond}/s`,
  met: load.okPerSecond >= rate,
});

const LOAD_TARGETS: LoadTarget[] = [
  {
    part: '`GET /health` p99 under hybrid + add load',
    name: 'GET /health (under load)',
    connections: 1,
    target: 'p99 <= 25 ms',
    judge: (load) => ({ measured: `p99 ${load.p99} ms (p95 ${load.p95})`, met: load.p99 <= 25 }),
  },
  {
    part: '`memories/add` acknowledged, local/hash-384',
    name: 'memories/add',
    connections: 8,
    target: '>= 2,000/s',
    applies: belowMillion,
    judge: addsAtLeast(2000),
  },
  {
    part: '`memories/add` acknowledged in one tenant of 1M, local/hash-384',
    name: 'memories/add',
    connections: 8,
    target: '>= 1,000/s',
    applies: atMillion,
    judge: addsAtLeast(1000),
  },
  {
    part: '`context/get` lexical, 1 client',
    name: 'context/get lexical',
    connections: 1,
    target: 'p95 <= 10 ms',
    applies: belowMillion,
    judge: p95AtMost(10),
  },
  {
    part: '`context/get` lexical in one tenant of 1M, 1 client',
    name: 'context/get lexical',
    connections: 1,
    target: 'p95 <= 25 ms',
    applies: atMillion,
    judge: p95AtMost(25),
  },
  {
    part: `\`memories/add\` acknowledged, ${DEFAULT_ENCODER_MODEL}`,
    name: ENCODER_ADD_RUN,
    connections: 8,
    target: '>= 1,000/s',
    judge: (load) => ({ measured: `${load.okPerSecond}/s`, met: load.okPerSecond >= 1000 }),
  },
  {
    part: '`context/get` hybrid, 1 client',
    name: 'context/get hybrid',
    connections: 1,
    target: 'p95 <= 60 ms',
    judge: p95AtMost(60),
  },
  {
    part: '`context/get` hybrid, 16 clients',
    name: 'context/get hybrid',
    connections: 16,
    target: '>= 24 req/s, p95 <= 1 s',
    judge: (load) => ({
      measured: `${load.okPerSecond} req/s (2xx), p95 ${load.p95} ms`,
      met: load.okPerSecond >= 24 && load.p95 <= 1000,
    }),
  },
];

const appliesAt = (check: LoadTarget, memories: number) => check.applies?.(memories) ?? true;

function judgeLoad(check: LoadTarget, load: LoadResult | undefined, memories: number): TargetRow {
  const base = { part: check.part, memories, target: check.target };
  if (load === undefined || load.requests === 0) return { ...base, measured: '—', verdict: 'not measured' };
  const { measured, met } = check.judge(load);
  return { ...base, measured, verdict: met ? 'met' : 'missed' };
}

/** The target cell of a run in the per-size table ('' when the run has no target). */
export function targetCell(load: LoadResult, memories: number): string {
  const check = LOAD_TARGETS.find(
    (each) => each.name === load.name && each.connections === load.connections && appliesAt(each, memories),
  );
  return check === undefined ? '' : `${check.target}: ${judgeLoad(check, load, memories).verdict}`;
}

function indexingRow(encoder: EncoderReport | null, memories: number): TargetRow {
  const base = { part: `background indexing, ${DEFAULT_ENCODER_MODEL}`, memories, target: '>= 300/s' };
  const indexing = encoder?.indexing;
  if (encoder === null || indexing == null) return { ...base, measured: '—', verdict: 'not measured' };
  if (indexing.perSecond !== null) {
    const complete = indexing.complete ? '' : `, ${indexing.drained} of ${indexing.backlogAtLoadEnd} in the time limit`;
    return {
      ...base,
      measured: `${indexing.perSecond}/s${complete}`,
      verdict: indexing.perSecond >= 300 ? 'met' : 'missed',
    };
  }
  // No backlog when the load ended: the indexer kept up with the writes, so it indexed at least their rate.
  const keptUp = encoder.add.okPerSecond;
  return {
    ...base,
    measured: `no backlog (kept up with ${keptUp}/s)`,
    verdict: keptUp >= 300 ? 'met' : 'not measured',
  };
}

/** Hybrid at 1 client with the default encoder on the query path (the indexer idle), and the server's RSS. */
function encoderServerRows(encoder: EncoderReport | null, memories: number): TargetRow[] {
  const model = encoder?.model ?? DEFAULT_ENCODER_MODEL;
  const hybrid = encoder?.foreground?.idle.hybrid;
  const hybridPart = `\`context/get\` hybrid, 1 client, ${model} on the query path`;
  const rssPart = `server peak RSS with ${model} loaded`;
  return [
    hybrid === undefined
      ? { part: hybridPart, memories, target: 'p95 <= 30 ms', measured: '—', verdict: 'not measured' }
      : {
          part: hybridPart,
          memories,
          target: 'p95 <= 30 ms',
          measured: `p50 ${hybrid.p50} / p95 ${hybrid.p95} ms`,
          verdict: hybrid.p95 <= 30 ? 'met' : 'missed',
        },
    encoder === null
      ? { part: rssPart, memories, target: '<= 500 MB', measured: '—', verdict: 'not measured' }
      : {
          part: rssPart,
          memories,
          target: '<= 500 MB',
          measured: `${encoder.peakRssMb} MB`,
          verdict: encoder.peakRssMb <= 500 ? 'met' : 'missed',
        },
  ];
}

/** The 1M run's peak RSS (reported, no target) and how long its seeding and vectors took. */
function millionRows(size: TargetInput): TargetRow[] {
  if (!atMillion(size.memories)) return [];
  const minutes = (seconds: number | null) =>
    seconds == null || Number.isNaN(seconds) ? '—' : `${(seconds / 60).toFixed(1)} min`;
  return [
    {
      part: 'one tenant of 1M: server peak RSS, and what the run took',
      memories: size.memories,
      target: 'reported',
      measured: `${size.peakRssMb} MB; seeding ${minutes(size.seedSeconds)}, vectors ${minutes(size.vectorsSeconds)}`,
      verdict: Number.isNaN(size.peakRssMb) ? 'not measured' : 'met',
    },
  ];
}

function evalReplayRow(report: EvalReplayReport | null, memories: number): TargetRow {
  const base = { part: 'eval replay, one ~1 MB request', memories, target: '200 within 1 s, or 400' };
  if (report === null) return { ...base, measured: '—', verdict: 'not measured' };
  const met = (report.status === 200 && report.milliseconds <= 1000) || report.status === 400;
  return {
    ...base,
    measured: `${report.status}${report.errorCode === null ? '' : ` ${report.errorCode}`} in ${report.milliseconds} ms`,
    verdict: met ? 'met' : 'missed',
  };
}

/**
 * Every target beside what this run measured, size by size (rows of parts that did not run say so). The encoder
 * rows are judged at `encoderSize` only, the one size the encoder runs at.
 */
export function targetRows(sizes: TargetInput[], encoderSize: number): TargetRow[] {
  return sizes.flatMap((size) => {
    const withEncoder = size.memories === encoderSize;
    return [
      ...LOAD_TARGETS.filter(
        (check) => (withEncoder || check.name !== ENCODER_ADD_RUN) && appliesAt(check, size.memories),
      ).map((check) => {
        const load =
          check.name === ENCODER_ADD_RUN
            ? size.encoder?.add
            : size.loads.find((each) => each.name === check.name && each.connections === check.connections);
        return judgeLoad(check, load, size.memories);
      }),
      ...(withEncoder
        ? [
            indexingRow(size.encoder, size.memories),
            ...encoderServerRows(size.encoder, size.memories),
            ...foregroundTargetRows(size.encoder, size.memories),
          ]
        : []),
      ...millionRows(size),
      evalReplayRow(size.evalReplay, size.memories),
    ];
  });
}
