import { pairCorpus, timelines } from './corpus/index.js';
import type { Timeline } from './corpus/timeline-types.js';
import type { PairCase } from './corpus/types.js';
import type { Options } from './options.js';

/** The pair cases a run takes: the chosen behaviours, at most `limit` of each. */
export function selectPairs(options: Options): PairCase[] {
  return options.behaviours.flatMap((behaviour) =>
    pairCorpus.filter((pair) => pair.behaviour === behaviour).slice(0, options.limit),
  );
}

/** The timelines a run takes: whole timelines until `limit` probes, the last one cut to fit. */
export function selectTimelines(options: Options): Timeline[] {
  if (!options.behaviours.includes('time')) return [];
  const chosen: Timeline[] = [];
  let probes = 0;
  for (const timeline of timelines) {
    if (probes >= options.limit) break;
    const take = Math.min(timeline.probes.length, options.limit - probes);
    chosen.push({ ...timeline, probes: timeline.probes.slice(0, take) });
    probes += take;
  }
  return chosen;
}
