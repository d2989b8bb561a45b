import type { Answer, StrategyChoice } from './ask.js';
import { pairKey } from './ask.js';
import type { PairBehaviour } from './corpus/types.js';
import type { WrittenPair, WrittenTimeline } from './ingest.js';
import type { Settled } from './settle.js';

/** One context/get of a pair case: where each statement ranked (0-based; null when not served) and the conflicts. */
export interface PairRead {
  firstRank: number | null;
  secondRank: number | null;
  /** The two statements were paired in `conflicts[]`. */
  paired: boolean;
  /** Pairs in `conflicts[]`, all of them. */
  reported: number;
  appliedStrategy: string;
  semanticFallback: boolean;
}

/** A pair case after its writes settled, and its reads per strategy. */
export interface PairOutcome {
  id: string;
  behaviour: PairBehaviour;
  dedupAtWrite: boolean;
  firstLive: boolean;
  secondLive: boolean;
  /** At most one of the two statements is live (the second add deduplicated, or one superseded or gone). */
  merged: boolean;
  /** What superseded each statement, when something did. */
  firstSupersededBy: string | null;
  secondSupersededBy: string | null;
  /** Fillers folded at write or not live after settling: merges that should not have happened. */
  spurious: number;
  reads: Partial<Record<StrategyChoice, PairRead>>;
}

/** One context/get of a time probe: the target's rank (0-based; null when not served). */
export interface TimeRead {
  rank: number | null;
  reported: number;
  appliedStrategy: string;
  semanticFallback: boolean;
}

/** A time probe, and its reads per strategy; `skipped` says why it is not scored on this run date. */
export interface TimeOutcome {
  id: string;
  timelineId: string;
  query: string;
  target: string;
  skipped: string | null;
  targetLive: boolean;
  reads: Partial<Record<StrategyChoice, TimeRead>>;
}

/** A timeline after its writes settled: memories folded at write or not live (none should be). */
export interface TimelineOutcome {
  id: string;
  spurious: number;
}

function notLive(ids: readonly string[], settled: Settled): number {
  return [...new Set(ids)].filter((id) => !settled.live.has(id)).length;
}

/** Scores the writes of a pair case. */
export function pairOutcome(id: string, behaviour: PairBehaviour, written: WrittenPair, settled: Settled): PairOutcome {
  const firstLive = settled.live.has(written.firstId);
  const secondLive = settled.live.has(written.secondId);
  const liveCount = new Set([written.firstId, written.secondId].filter((memoryId) => settled.live.has(memoryId))).size;
  return {
    id,
    behaviour,
    dedupAtWrite: written.dedupAtWrite,
    firstLive,
    secondLive,
    merged: written.dedupAtWrite || liveCount <= 1,
    firstSupersededBy: settled.supersededBy.get(written.firstId) ?? null,
    secondSupersededBy: settled.supersededBy.get(written.secondId) ?? null,
    spurious: written.fillersDeduplicated + notLive(written.fillerIds, settled),
    reads: {},
  };
}

/** Scores one context/get of a pair case. */
export function pairRead(written: WrittenPair, answer: Answer): PairRead {
  const rankOf = (id: string) => {
    const rank = answer.ids.indexOf(id);
    return rank === -1 ? null : rank;
  };
  const wanted = pairKey(written.firstId, written.secondId);
  return {
    firstRank: rankOf(written.firstId),
    secondRank: rankOf(written.secondId),
    paired: written.firstId !== written.secondId && answer.conflicts.some(([a, b]) => pairKey(a, b) === wanted),
    reported: answer.conflicts.length,
    appliedStrategy: answer.appliedStrategy,
    semanticFallback: answer.semanticFallback,
  };
}

/** Scores the writes of a timeline. */
export function timelineOutcome(id: string, written: WrittenTimeline, settled: Settled): TimelineOutcome {
  return { id, spurious: written.deduplicated + notLive([...written.idOf.values(), ...written.fillerIds], settled) };
}

/** Scores one context/get of a time probe. */
export function timeRead(targetId: string, answer: Answer): TimeRead {
  const rank = answer.ids.indexOf(targetId);
  return {
    rank: rank === -1 ? null : rank,
    reported: answer.conflicts.length,
    appliedStrategy: answer.appliedStrategy,
    semanticFallback: answer.semanticFallback,
  };
}
