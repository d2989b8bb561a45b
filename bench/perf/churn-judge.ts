import { LIMITS } from '../../packages/contract/src/index.js';
import { isFailure, type OutcomeTally } from './churn-http.js';
import type { McpBatchStats } from './churn-mcp.js';
import type { ProcessSample } from './process-sampler.js';

/** One metric (descriptors or RSS MB) through the run. */
export interface MetricSummary {
  /** Right after the server started (no tenant open). */
  baseline: number;
  /** When the warm-up ended. */
  start: number;
  peak: number;
  /** When the load stopped. */
  end: number;
  /** After the idle period. */
  afterIdle: number;
  firstThirdMax: number;
  lastThirdMax: number;
  /** Least-squares slope over the measured samples, per minute. */
  slopePerMinute: number;
  flat: boolean;
}

/** One check of the soak, as the targets table shows it. */
export interface ChurnCheck {
  check: string;
  target: string;
  measured: string;
  met: boolean;
}

/** The soak's reading of its samples and answers. */
export interface ChurnVerdict {
  descriptors: MetricSummary;
  rssMb: MetricSummary;
  /** The most descriptors an open-tenant cache of its size can explain. */
  descriptorBound: number;
  checks: ChurnCheck[];
  passed: boolean;
}

/** A metric is flat when the last third stays within this factor of the first third's maximum... */
const FLAT_FACTOR = 1.25;
/** ...and the fitted growth over the measured run stays under this share of the first third's maximum. */
const TREND_SHARE = 0.1;
/** Absolute slack of both (a few sockets; the RSS noise of a 16 MiB MCP answer). */
const SLACK = { descriptors: 16, rssMb: 48 };
/** Descriptors a database connection may hold: the file, its WAL, its shared memory, one more for a journal. */
const DESCRIPTORS_PER_CONNECTION = 4;
/** Descriptors beyond the tenants: the load's keep-alive sockets and the server's own files opened after start. */
const DESCRIPTOR_ALLOWANCE = 64;

function slope(points: Array<{ seconds: number; value: number }>): number {
  if (points.length < 2) return 0;
  const meanX = points.reduce((sum, point) => sum + point.seconds, 0) / points.length;
  const meanY = points.reduce((sum, point) => sum + point.value, 0) / points.length;
  let numerator = 0;
  let denominator = 0;
  for (const point of points) {
    numerator += (point.seconds - meanX) * (point.value - meanY);
    denominator += (point.seconds - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

function summarize(samples: ProcessSample[], pick: (sample: ProcessSample) => number, slack: number): MetricSummary {
  const values = (phase: string) => samples.filter((sample) => sample.phase === phase).map(pick);
  const load = samples.filter((sample) => sample.phase === 'load');
  const loadValues = load.map(pick);
  const third = Math.max(1, Math.ceil(loadValues.length / 3));
  const firstThirdMax = Math.max(...loadValues.slice(0, third));
  const lastThirdMax = Math.max(...loadValues.slice(-third));
  const perSecond = slope(load.map((sample) => ({ seconds: sample.seconds, value: pick(sample) })));
  const loadSeconds = (load.at(-1)?.seconds ?? 0) - (load[0]?.seconds ?? 0);
  const flat =
    loadValues.length >= 3 &&
    lastThirdMax <= firstThirdMax * FLAT_FACTOR + slack &&
    perSecond * loadSeconds <= firstThirdMax * TREND_SHARE + slack;
  return {
    baseline: values('started')[0] ?? Number.NaN,
    start: loadValues[0] ?? Number.NaN,
    peak: Math.max(...samples.map(pick)),
    end: loadValues.at(-1) ?? Number.NaN,
    afterIdle: values('idle').at(-1) ?? Number.NaN,
    firstThirdMax,
    lastThirdMax,
    slopePerMinute: Math.round(perSecond * 60 * 10) / 10,
    flat,
  };
}

/** Judges the soak: descriptors bounded and flat, RSS flat, no 5xx but SERVER_BUSY, MCP answers within budget. */
export function judgeChurn(input: {
  samples: ProcessSample[];
  tally: OutcomeTally;
  cacheSize: number;
  databaseWorkers: number;
  mcpBatches: McpBatchStats[];
  exitedAtSeconds: number | null;
}): ChurnVerdict {
  const descriptors = summarize(input.samples, (sample) => sample.descriptors, SLACK.descriptors);
  const rssMb = summarize(input.samples, (sample) => sample.rssMb, SLACK.rssMb);
  const tenantDescriptors = input.cacheSize * input.databaseWorkers * DESCRIPTORS_PER_CONNECTION;
  const descriptorBound = descriptors.baseline + tenantDescriptors + DESCRIPTOR_ALLOWANCE;
  const failures = input.tally.total(isFailure);
  const busy = input.tally.total((outcome) => outcome === '503 SERVER_BUSY');
  const flatLine = (metric: MetricSummary, unit: string) =>
    `last third max ${metric.lastThirdMax}${unit} vs first ${metric.firstThirdMax}${unit}, ${metric.slopePerMinute}${unit}/min`;
  // The budget of the tool results, plus the JSON-RPC framing of up to 100 answers.
  const budget = LIMITS.mcpResponseBytes + 64 * 1024;
  const largest = Math.max(0, ...input.mcpBatches.map((batch) => batch.maxBytes));
  const checks: ChurnCheck[] = [
    {
      check: 'server process alive',
      target: 'never exits',
      measured: input.exitedAtSeconds === null ? 'alive' : `gone at ${input.exitedAtSeconds} s`,
      met: input.exitedAtSeconds === null,
    },
    {
      check: 'descriptors bounded (peak and after idle)',
      target: `<= baseline + ${input.cacheSize} x ${input.databaseWorkers} x ${DESCRIPTORS_PER_CONNECTION} + ${DESCRIPTOR_ALLOWANCE} = ${descriptorBound}`,
      measured: `peak ${descriptors.peak}, after idle ${descriptors.afterIdle}`,
      met: descriptors.peak <= descriptorBound && descriptors.afterIdle <= descriptorBound,
    },
    {
      check: 'descriptors flat',
      target: `last third <= ${FLAT_FACTOR} x first + ${SLACK.descriptors}, growth < ${TREND_SHARE * 100}%`,
      measured: flatLine(descriptors, ''),
      met: descriptors.flat,
    },
    {
      check: 'RSS flat',
      target: `last third <= ${FLAT_FACTOR} x first + ${SLACK.rssMb} MB, growth < ${TREND_SHARE * 100}%`,
      measured: flatLine(rssMb, ' MB'),
      met: rssMb.flat,
    },
    {
      check: '5xx (but 503 SERVER_BUSY), timeouts, network errors',
      target: '0',
      measured: `${failures} (and ${busy} x 503 SERVER_BUSY)`,
      met: failures === 0,
    },
  ];
  if (input.mcpBatches.length > 0)
    checks.push({
      check: 'largest MCP answer',
      target: `<= 16 MiB + 64 KiB (${budget} bytes)`,
      measured: `${largest} bytes`,
      met: largest <= budget,
    });
  return { descriptors, rssMb, descriptorBound, checks, passed: checks.every((check) => check.met) };
}
