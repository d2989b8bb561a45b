import type { StrategyChoice } from './ask.js';
import type { PairBehaviour } from './corpus/types.js';
import type { PairOutcome, PairRead, TimelineOutcome, TimeOutcome } from './outcomes.js';
import { TIME_TOP_K } from './targets.js';

/** A share with what it was counted from; `value` is null when nothing was counted. */
export interface Rate {
  hits: number;
  n: number;
  value: number | null;
}

function rate(hits: number, n: number): Rate {
  return { hits, n, value: n === 0 ? null : Math.round((hits / n) * 1000) / 1000 };
}

/** What the writes (and consolidation) did; the same for every strategy. */
export interface WriteFigures {
  mergeRecallDuplicate: Rate;
  mergeRecallParaphrase: Rate;
  /** Duplicates and paraphrases merged at write (`deduplicated: true`), before consolidation. */
  mergedAtWrite: { duplicate: number; paraphrase: number };
  /** True merges over every merge: lookalike pairs merged and fillers or timeline memories folded count against. */
  mergePrecision: Rate;
  lookalikeMerged: number;
  spuriousMerges: number;
  /** The older statement superseded and the newer live; `newerLost` the other way round. */
  update: { n: number; olderSuperseded: number; newerLost: number };
  contradiction: { n: number; olderSuperseded: number; newerLost: number };
}

/** What context/get served with one strategy. */
export interface ReadFigures {
  newerAboveOlder: Rate;
  /** Update outcomes: both served newer first / older first, one served, neither. */
  updateOutcomes: { newerFirst: number; olderFirst: number; newerOnly: number; olderOnly: number; neither: number };
  conflictRecall: Rate;
  conflictRecallWithUpdates: Rate;
  conflictPrecision: Rate;
  /** Contradictions detected through `conflicts[]` (the rest through supersession). */
  pairedInConflicts: number;
  /** Reported pairs that were not a contradiction or an update, by the behaviour of the case that served them. */
  falseConflicts: Record<string, number>;
  timeTop5: Rate;
  timeSkipped: number;
  timeTargetNotLive: number;
  appliedStrategies: Record<string, number>;
  semanticFallbacks: number;
}

const of = (outcomes: readonly PairOutcome[], behaviour: PairBehaviour) =>
  outcomes.filter((outcome) => outcome.behaviour === behaviour);

/** Figures of the writes. */
export function writeFigures(pairs: readonly PairOutcome[], timelines: readonly TimelineOutcome[]): WriteFigures {
  const duplicates = of(pairs, 'duplicate');
  const paraphrases = of(pairs, 'paraphrase');
  const merged = (list: readonly PairOutcome[]) => list.filter((outcome) => outcome.merged).length;
  const lookalikeMerged = merged(of(pairs, 'lookalike'));
  const spuriousMerges =
    pairs.reduce((sum, outcome) => sum + outcome.spurious, 0) +
    timelines.reduce((sum, outcome) => sum + outcome.spurious, 0);
  const trueMerges = merged(duplicates) + merged(paraphrases);
  const direction = (list: readonly PairOutcome[]) => ({
    n: list.length,
    olderSuperseded: list.filter((outcome) => !outcome.firstLive && outcome.secondLive).length,
    newerLost: list.filter((outcome) => outcome.firstLive && !outcome.secondLive).length,
  });
  return {
    mergeRecallDuplicate: rate(merged(duplicates), duplicates.length),
    mergeRecallParaphrase: rate(merged(paraphrases), paraphrases.length),
    mergedAtWrite: {
      duplicate: duplicates.filter((outcome) => outcome.dedupAtWrite).length,
      paraphrase: paraphrases.filter((outcome) => outcome.dedupAtWrite).length,
    },
    mergePrecision: rate(trueMerges, trueMerges + lookalikeMerged + spuriousMerges),
    lookalikeMerged,
    spuriousMerges,
    update: direction(of(pairs, 'update')),
    contradiction: direction(of(pairs, 'contradiction')),
  };
}

/** A pair counts as detected when paired in `conflicts[]`, or when the older is superseded and the newer live. */
function detected(outcome: PairOutcome, read: PairRead | undefined): boolean {
  return (read?.paired ?? false) || (!outcome.firstLive && outcome.secondLive);
}

/** Figures of one strategy's reads. */
export function readFigures(
  strategy: StrategyChoice,
  pairs: readonly PairOutcome[],
  probes: readonly TimeOutcome[],
): ReadFigures {
  const updateOutcomes = { newerFirst: 0, olderFirst: 0, newerOnly: 0, olderOnly: 0, neither: 0 };
  for (const outcome of of(pairs, 'update')) {
    const read = outcome.reads[strategy];
    const older = read?.firstRank ?? null;
    const newer = read?.secondRank ?? null;
    if (older !== null && newer !== null) {
      if (newer < older) updateOutcomes.newerFirst += 1;
      else updateOutcomes.olderFirst += 1;
    } else if (newer !== null) updateOutcomes.newerOnly += 1;
    else if (older !== null) updateOutcomes.olderOnly += 1;
    else updateOutcomes.neither += 1;
  }
  const updates = of(pairs, 'update');
  const contradictions = of(pairs, 'contradiction');
  const detectedIn = (list: readonly PairOutcome[]) =>
    list.filter((outcome) => detected(outcome, outcome.reads[strategy])).length;
  let reported = 0;
  let truePairs = 0;
  const falseConflicts: Record<string, number> = {};
  const count = (behaviour: string, n: number) => {
    if (n > 0) falseConflicts[behaviour] = (falseConflicts[behaviour] ?? 0) + n;
  };
  const appliedStrategies: Record<string, number> = {};
  let semanticFallbacks = 0;
  const noteRead = (read: { appliedStrategy: string; semanticFallback: boolean }) => {
    appliedStrategies[read.appliedStrategy] = (appliedStrategies[read.appliedStrategy] ?? 0) + 1;
    if (read.semanticFallback) semanticFallbacks += 1;
  };
  for (const outcome of pairs) {
    const read = outcome.reads[strategy];
    if (read === undefined) continue;
    noteRead(read);
    reported += read.reported;
    const isTrue = read.paired && (outcome.behaviour === 'contradiction' || outcome.behaviour === 'update');
    if (isTrue) truePairs += 1;
    count(outcome.behaviour, read.reported - (isTrue ? 1 : 0));
  }
  const scored = probes.filter((probe) => probe.skipped === null);
  let hits = 0;
  for (const probe of scored) {
    const read = probe.reads[strategy];
    if (read === undefined) continue;
    noteRead(read);
    reported += read.reported;
    count('time', read.reported);
    if (read.rank !== null && read.rank < TIME_TOP_K) hits += 1;
  }
  return {
    newerAboveOlder: rate(updateOutcomes.newerFirst + updateOutcomes.newerOnly, updates.length),
    updateOutcomes,
    conflictRecall: rate(detectedIn(contradictions), contradictions.length),
    conflictRecallWithUpdates: rate(
      detectedIn(contradictions) + detectedIn(updates),
      contradictions.length + updates.length,
    ),
    conflictPrecision: rate(truePairs, reported),
    pairedInConflicts: contradictions.filter((outcome) => outcome.reads[strategy]?.paired).length,
    falseConflicts,
    timeTop5: rate(hits, scored.length),
    timeSkipped: probes.length - scored.length,
    timeTargetNotLive: scored.filter((probe) => !probe.targetLive).length,
    appliedStrategies,
    semanticFallbacks,
  };
}
