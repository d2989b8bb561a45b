import { probeProblem } from './clock.js';
import { FILLERS } from './corpus/filler.js';
import { pairCorpus, timelines } from './corpus/index.js';
import { PAIR_BEHAVIOURS } from './corpus/types.js';

/**
 * `tsx bench/quality/check-corpus.ts`: checks the corpus without a server: unique ids, counts per behaviour, no
 * filler that a case also says, timeline keys and targets, and how many time probes the calendar would skip on each
 * run date of the coming year (their window blurred on that date, see `clock.ts`).
 */
const problems: string[] = [];
const ids = new Set<string>();
for (const id of [...pairCorpus.map((c) => c.id), ...timelines.map((t) => t.id)]) {
  if (ids.has(id)) problems.push(`duplicate id ${id}`);
  ids.add(id);
}
const said = new Set(
  pairCorpus.flatMap((c) => [c.first, c.second]).concat(timelines.flatMap((t) => t.memories.map((m) => m[2]))),
);
for (const [, filler] of FILLERS) if (said.has(filler)) problems.push(`filler also said by a case: ${filler}`);
for (const timeline of timelines) {
  const keys = new Set(timeline.memories.map(([key]) => key));
  if (keys.size !== timeline.memories.length) problems.push(`${timeline.id}: repeated memory key`);
  for (const [query, target] of timeline.probes)
    if (!keys.has(target)) problems.push(`${timeline.id}: "${query}" targets ${target}`);
}

const counts = Object.fromEntries(PAIR_BEHAVIOURS.map((b) => [b, pairCorpus.filter((c) => c.behaviour === b).length]));
const probes = timelines.reduce((sum, t) => sum + t.probes.length, 0);
console.log(`pair cases: ${JSON.stringify(counts)}; time: ${timelines.length} timelines, ${probes} probes`);
console.log(`total cases: ${pairCorpus.length + probes}`);

const skipsPerProbe = new Map<string, number>();
let worstDay = { date: '', skipped: 0 };
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const days = 366;
for (let day = 0; day < days; day += 1) {
  for (const hour of [0.2, 12, 23.8]) {
    const now = new Date(today + day * 86_400_000 + hour * 3_600_000);
    let skipped = 0;
    for (const timeline of timelines)
      for (const probe of timeline.probes) {
        if (probeProblem(probe, timeline.memories, now) === null) continue;
        skipped += 1;
        const key = `${timeline.id}: ${probe[0]}`;
        skipsPerProbe.set(key, (skipsPerProbe.get(key) ?? 0) + 1);
      }
    if (skipped > worstDay.skipped) worstDay = { date: now.toISOString(), skipped };
  }
}
console.log(`time probes skipped on the worst run time of the coming year: ${worstDay.skipped} (${worstDay.date})`);
for (const [probe, n] of [...skipsPerProbe].sort((a, b) => b[1] - a[1]))
  console.log(`  skipped at ${n} of ${days * 3} run times: ${probe}`);
for (const problem of problems) console.log(`PROBLEM ${problem}`);
if (problems.length > 0) process.exitCode = 1;
