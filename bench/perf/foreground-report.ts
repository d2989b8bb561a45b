import type { EncoderReport } from './encoder-writes.js';
import type { LoadResult } from './load.js';
import type { TargetRow } from './target-row.js';

/** The target of the lag from an acknowledged add to "found by meaning", p95 ms. */
const LAG_P95_TARGET_MS = 2_000;

const ratio = (part: number, whole: number) => (whole === 0 ? Number.NaN : part / whole);
const percent = (value: number) => `${Math.round(value * 100)}%`;

/** The encoder run's lag and foreground rows beside their targets (issue 27). */
export function foregroundTargetRows(encoder: EncoderReport | null, memories: number): TargetRow[] {
  const model = encoder?.model ?? 'default encoder';
  const unmeasured = (part: string, target: string): TargetRow => ({
    part,
    memories,
    target,
    measured: '—',
    verdict: 'not measured',
  });
  const lagPart = `add to "found by meaning" at ${encoder?.lag?.rate ?? 100} adds/s, ${model}`;
  const lag = encoder?.lag;
  const rows: TargetRow[] = [
    lag == null
      ? unmeasured(lagPart, 'p95 <= 2 s')
      : {
          part: lagPart,
          memories,
          target: 'p95 <= 2 s',
          measured: `p50 ${lag.p50Ms} / p95 ${lag.p95Ms} / max ${lag.maxMs} ms${lag.unindexed > 0 ? `, ${lag.unindexed} not indexed` : ''}`,
          verdict: lag.p95Ms <= LAG_P95_TARGET_MS && lag.unindexed === 0 ? 'met' : 'missed',
        },
  ];
  const foreground = encoder?.foreground;
  const backlogPart = (strategy: string) => `\`context/get\` ${strategy} p95 during an index backlog, ${model}`;
  const sharedParts = ['adds beside 8 hybrid readers (of alone)', 'hybrid reads beside 8 writers (of alone)'];
  if (foreground == null || encoder == null)
    return [
      ...rows,
      unmeasured(backlogPart('lexical'), '<= 2x idle'),
      unmeasured(backlogPart('hybrid'), '<= 2x idle'),
      unmeasured(sharedParts[0]!, '>= 50%'),
      unmeasured(sharedParts[1]!, '>= 80%'),
    ];
  const backlogRow = (strategy: 'lexical' | 'hybrid'): TargetRow => {
    const [idle, busy] = [foreground.idle[strategy], foreground.backlog[strategy]];
    const times = ratio(busy.p95, idle.p95);
    return {
      part: backlogPart(strategy),
      memories,
      target: '<= 2x idle',
      measured: `${busy.p95} vs ${idle.p95} ms = ${times.toFixed(2)}x (backlog ${foreground.backlogAtStart} -> ${foreground.backlogAtEnd})`,
      verdict: times <= 2 ? 'met' : 'missed',
    };
  };
  const sharedRow = (part: string, mixed: LoadResult, alone: LoadResult, target: number): TargetRow => {
    const share = ratio(mixed.okPerSecond, alone.okPerSecond);
    return {
      part,
      memories,
      target: `>= ${percent(target)}`,
      measured: `${mixed.okPerSecond}/s of ${alone.okPerSecond}/s = ${percent(share)}`,
      verdict: share >= target ? 'met' : 'missed',
    };
  };
  return [
    ...rows,
    backlogRow('lexical'),
    backlogRow('hybrid'),
    sharedRow(sharedParts[0]!, foreground.mixedAdds, encoder.add, 0.5),
    sharedRow(sharedParts[1]!, foreground.mixedReads, foreground.soloReads, 0.8),
  ];
}

/** The encoder run's foreground loads, as rows of the per-size table. */
export function foregroundLoads(encoder: EncoderReport): LoadResult[] {
  const foreground = encoder.foreground;
  if (foreground === null) return [];
  return [
    foreground.idle.lexical,
    foreground.idle.hybrid,
    foreground.backlog.lexical,
    foreground.backlog.hybrid,
    foreground.soloReads,
    foreground.mixedReads,
    foreground.mixedAdds,
  ];
}
