import { startInProcessServer } from '../retrieval/in-process-server.js';
import { ProgressBar } from '../retrieval/progress.js';
import { ask } from './ask.js';
import { probeProblem } from './clock.js';
import { BEHAVIOURS } from './corpus/types.js';
import { FILLERS_PER_CASE, type WrittenPair, type WrittenTimeline, writePair, writeTimeline } from './ingest.js';
import { readOptions } from './options.js';
import {
  type PairOutcome,
  pairOutcome,
  pairRead,
  type TimelineOutcome,
  type TimeOutcome,
  timelineOutcome,
  timeRead,
} from './outcomes.js';
import { printReport } from './report.js';
import { checkoutLabel, writeResults } from './results-file.js';
import { type ReadFigures, readFigures, writeFigures } from './score.js';
import { selectPairs, selectTimelines } from './select.js';
import { settle } from './settle.js';
import { TARGETS, TIME_TOP_K } from './targets.js';

/**
 * `pnpm bench:quality`: how well the service keeps memory right as it grows (duplicates, paraphrases, updates,
 * contradictions, lookalikes, time), on a corpus written for it (`corpus/`), with the real server in-process, one
 * tenant per case. See README.md.
 */
const options = readOptions();
const startedAt = new Date();
const runStart = performance.now();
const pairs = selectPairs(options);
const timelines = selectTimelines(options);
const probeCount = timelines.reduce((sum, timeline) => sum + timeline.probes.length, 0);
const server = await startInProcessServer(
  options.embeddingModel === undefined ? {} : { embeddingModel: options.embeddingModel },
);
const progress = new ProgressBar(
  (pairs.length + timelines.length) * 2 + (pairs.length + probeCount) * options.strategies.length,
);
const seconds: Record<string, number> = {};
const since = (start: number) => Math.round((performance.now() - start) / 100) / 10;

// Writes: every case in its own tenant, statements in the order they were said.
let phase = performance.now();
const writtenPairs: WrittenPair[] = [];
for (const pair of pairs) {
  writtenPairs.push(await writePair(server, pair, startedAt));
  progress.tick(`write ${pair.id}`);
}
const writtenTimelines: WrittenTimeline[] = [];
for (const timeline of timelines) {
  writtenTimelines.push(await writeTimeline(server, timeline, startedAt));
  progress.tick(`write ${timeline.id}`);
}
seconds.writes = since(phase);

// Settle: indexer done, consolidation run, what is live.
phase = performance.now();
const pairOutcomes: PairOutcome[] = [];
const consolidation = { merged: 0, superseded: 0, conflicted: 0 };
const addRun = (run: typeof consolidation | null) => {
  if (run === null) return;
  consolidation.merged += run.merged;
  consolidation.superseded += run.superseded;
  consolidation.conflicted += run.conflicted;
};
for (const [index, pair] of pairs.entries()) {
  const written = writtenPairs[index] as WrittenPair;
  const settled = await settle(server, written.tenantId, options.consolidate);
  addRun(settled.consolidation);
  pairOutcomes.push(pairOutcome(pair.id, pair.behaviour, written, settled));
  progress.tick(`settle ${pair.id}`);
}
const timelineOutcomes: TimelineOutcome[] = [];
const timeOutcomes: TimeOutcome[] = [];
for (const [index, timeline] of timelines.entries()) {
  const written = writtenTimelines[index] as WrittenTimeline;
  const settled = await settle(server, written.tenantId, options.consolidate);
  addRun(settled.consolidation);
  timelineOutcomes.push(timelineOutcome(timeline.id, written, settled));
  for (const [probeIndex, probe] of timeline.probes.entries()) {
    const targetId = written.idOf.get(probe[1]) ?? '';
    timeOutcomes.push({
      id: `${timeline.id}/${probeIndex + 1}`,
      timelineId: timeline.id,
      query: probe[0],
      target: probe[1],
      skipped: probeProblem(probe, timeline.memories, startedAt),
      targetLive: settled.live.has(targetId),
      reads: {},
    });
  }
  progress.tick(`settle ${timeline.id}`);
}
seconds.settle = since(phase);

// Reads: the query of every case with each strategy. Pairs ask for 10 memories; time probes score the top 5.
for (const strategy of options.strategies) {
  phase = performance.now();
  for (const [index, pair] of pairs.entries()) {
    const written = writtenPairs[index] as WrittenPair;
    const answer = await ask(server, written.tenantId, pair.query, strategy, 10);
    (pairOutcomes[index] as PairOutcome).reads[strategy] = pairRead(written, answer);
    progress.tick(`${strategy} ${pair.id}`);
  }
  let probeIndex = 0;
  for (const [index, timeline] of timelines.entries()) {
    const written = writtenTimelines[index] as WrittenTimeline;
    for (const probe of timeline.probes) {
      const outcome = timeOutcomes[probeIndex] as TimeOutcome;
      probeIndex += 1;
      progress.tick(`${strategy} ${outcome.id}`);
      if (outcome.skipped !== null) continue;
      const answer = await ask(server, written.tenantId, probe[0], strategy, TIME_TOP_K);
      outcome.reads[strategy] = timeRead(written.idOf.get(probe[1]) ?? '', answer);
    }
  }
  seconds[`reads-${strategy}`] = since(phase);
}
const embeddingModel = server.embeddingModel;
await server.close();
seconds.total = since(runStart);

const writes = writeFigures(pairOutcomes, timelineOutcomes);
const reads: Partial<Record<(typeof options.strategies)[number], ReadFigures>> = {};
for (const strategy of options.strategies) reads[strategy] = readFigures(strategy, pairOutcomes, timeOutcomes);
const caseCounts: Record<string, number> = {};
for (const behaviour of BEHAVIOURS) {
  const n = behaviour === 'time' ? probeCount : pairs.filter((pair) => pair.behaviour === behaviour).length;
  if (n > 0) caseCounts[behaviour] = n;
}
const memories =
  pairs.length * (2 + FILLERS_PER_CASE) +
  timelines.reduce((sum, timeline) => sum + timeline.memories.length + FILLERS_PER_CASE, 0);
const facts = {
  date: startedAt.toISOString(),
  embeddingModel,
  consolidate: options.consolidate,
  caseCounts,
  memories,
  seconds: seconds.total ?? 0,
};
printReport(facts, writes, reads);
const file = writeResults(options.out, startedAt, {
  benchmark: 'quality',
  checkout: checkoutLabel(),
  ...facts,
  strategies: options.strategies,
  limit: Number.isFinite(options.limit) ? options.limit : null,
  seconds,
  consolidation,
  targets: TARGETS,
  writes,
  reads,
  cases: { pairs: pairOutcomes, timelines: timelineOutcomes, time: timeOutcomes },
});
process.stderr.write(`results written to ${file}\n`);
