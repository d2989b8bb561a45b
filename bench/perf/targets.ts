import type { EncoderReport } from './encoder-writes.js';
import type { EvalReplayReport } from './eval-replay.js';
import { foregroundTargetRows } from './foreground-report.js';
import type { LoadResult } from './load.js';
import { DEFAULT_ENCODER_MODEL } from './server-process.js';

/** A target beside what was measured. Benchmarks report; a missed target never fails the run. */
export interface TargetRow {
  part: string;
  memories: number | null;
  target: string;
  measured: string;
  verdict: 'met' | 'missed' | 'not measured';
}

/** What the targets are judged on, per size. */
export interface TargetInput {
  memories: number;
  loads: LoadResult[];
  encoder: EncoderReport | null;
  evalReplay: EvalReplayReport | null;
}

/** The name of the encoder's write run (its row in the tables). */
export const ENCODER_ADD_RUN = `memories/add (encoder ${DEFAULT_ENCODER_MODEL})`;

/** A target on one load run, found by name and client count. */
interface LoadTarget {
  part: string;
  name: string;
  connections: number;
  target: string;
  judge(load: LoadResult): { measured: string; met: boolean };
}

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
    judge: (load) => ({ measured: `${load.okPerSecond}/s`, met: load.okPerSecond >= 2000 }),
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
    judge: (load) => ({ measured: `p95 ${load.p95} ms`, met: load.p95 <= 60 }),
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

function judgeLoad(check: LoadTarget, load: LoadResult | undefined, memories: number): TargetRow {
  const base = { part: check.part, memories, target: check.target };
  if (load === undefined || load.requests === 0) return { ...base, measured: '—', verdict: 'not measured' };
  const { measured, met } = check.judge(load);
  return { ...base, measured, verdict: met ? 'met' : 'missed' };
}

/** The target cell of a run in the per-size table ('' when the run has no target). */
export function targetCell(load: LoadResult, memories: number): string {
  const check = LOAD_TARGETS.find((each) => each.name === load.name && each.connections === load.connections);
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
      ...LOAD_TARGETS.filter((check) => withEncoder || check.name !== ENCODER_ADD_RUN).map((check) => {
        const load =
          check.name === ENCODER_ADD_RUN
            ? size.encoder?.add
            : size.loads.find((each) => each.name === check.name && each.connections === check.connections);
        return judgeLoad(check, load, size.memories);
      }),
      ...(withEncoder
        ? [indexingRow(size.encoder, size.memories), ...foregroundTargetRows(size.encoder, size.memories)]
        : []),
      evalReplayRow(size.evalReplay, size.memories),
    ];
  });
}
