import { parseArgs } from 'node:util';
import { STRATEGY_CHOICES, type StrategyChoice } from './ask.js';
import { BEHAVIOURS, type Behaviour } from './corpus/types.js';

/** What a run does (the flags are described in README.md). */
export interface Options {
  strategies: StrategyChoice[];
  embeddingModel: string | undefined;
  /** The behaviours to run (all unless `--only`). */
  behaviours: Behaviour[];
  /** At most this many cases per behaviour (time: probes), for quick runs. */
  limit: number;
  consolidate: boolean;
  out: string;
}

/** Reads the command line: `--strategy lexical|hybrid|default[,...]`, `--embedding-model`, `--only`, `--limit`. */
export function readOptions(args: string[] = process.argv.slice(2)): Options {
  const { values } = parseArgs({
    args,
    options: {
      strategy: { type: 'string' },
      'embedding-model': { type: 'string' },
      only: { type: 'string' },
      limit: { type: 'string' },
      'no-consolidate': { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results/quality' },
    },
  });
  const strategies = (values.strategy ?? STRATEGY_CHOICES.join(',')).split(',').map((name) => name.trim());
  for (const name of strategies)
    if (!(STRATEGY_CHOICES as readonly string[]).includes(name))
      throw new Error(`--strategy must be one or more of ${STRATEGY_CHOICES.join(', ')} (comma-separated)`);
  const behaviours = (values.only ?? BEHAVIOURS.join(',')).split(',').map((name) => name.trim());
  for (const name of behaviours)
    if (!(BEHAVIOURS as readonly string[]).includes(name))
      throw new Error(`--only must be one or more of ${BEHAVIOURS.join(', ')} (comma-separated)`);
  const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
  if (!(limit > 0)) throw new Error('--limit must be a positive number of cases per behaviour');
  return {
    strategies: [...new Set(strategies)] as StrategyChoice[],
    embeddingModel: values['embedding-model'],
    behaviours: BEHAVIOURS.filter((behaviour) => behaviours.includes(behaviour)),
    limit,
    consolidate: !values['no-consolidate'],
    out: values.out,
  };
}
