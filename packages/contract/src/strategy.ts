import * as z from 'zod';

/** Retrieval strategies, by their current names (docs/architecture.md#retrieval). */
export const STRATEGIES = ['lexical', 'hybrid'] as const;
export const StrategySchema = z.enum(STRATEGIES);
export type Strategy = z.infer<typeof StrategySchema>;

/**
 * The deprecated names still accepted on input, each with the strategy it stands for. Read backwards it is each
 * strategy's legacy name (`LEGACY_STRATEGY_NAMES`), the vocabulary legacy clients read in a trace.
 */
export const STRATEGY_ALIASES = { baseline: 'lexical', hybrid_graph: 'hybrid' } as const satisfies Record<
  string,
  Strategy
>;
export type StrategyAlias = keyof typeof STRATEGY_ALIASES;

/**
 * Names of other clients of the contract, accepted on input and not deprecated: the memories.sh client sends
 * `semantic` (its vector-only strategy), which runs hybrid here (lexical and vector retrieval fused).
 */
export const STRATEGY_UPSTREAM_NAMES = { semantic: 'hybrid' } as const satisfies Record<string, Strategy>;
type StrategyUpstreamName = keyof typeof STRATEGY_UPSTREAM_NAMES;

const STRATEGY_ALIAS_NAMES = Object.keys(STRATEGY_ALIASES) as StrategyAlias[];
const STRATEGY_UPSTREAM_NAME_LIST = Object.keys(STRATEGY_UPSTREAM_NAMES) as StrategyUpstreamName[];

/** Every strategy name a request may send: the current names, the deprecated aliases, then upstream's names. */
export const StrategyInputSchema = z.enum([...STRATEGIES, ...STRATEGY_ALIAS_NAMES, ...STRATEGY_UPSTREAM_NAME_LIST]);
export type StrategyInput = z.infer<typeof StrategyInputSchema>;

/** A strategy under its legacy name, the vocabulary of `trace.strategy`. */
export const LegacyStrategySchema = z.enum(STRATEGY_ALIAS_NAMES);
export type LegacyStrategy = z.infer<typeof LegacyStrategySchema>;

type InverseOf<Table extends Record<string, string>> = {
  [Value in Table[keyof Table]]: { [Key in keyof Table]: Table[Key] extends Value ? Key : never }[keyof Table];
};

/** The legacy name of each strategy: `STRATEGY_ALIASES` read backwards (`lexical` -> `baseline`). */
export const LEGACY_STRATEGY_NAMES = Object.fromEntries(
  Object.entries(STRATEGY_ALIASES).map(([alias, strategy]) => [strategy, alias]),
) as InverseOf<typeof STRATEGY_ALIASES> satisfies Record<Strategy, LegacyStrategy>;

/** Whether a strategy value is one of the deprecated aliases. */
export function isStrategyAlias(value: string): value is StrategyAlias {
  return Object.hasOwn(STRATEGY_ALIASES, value);
}

/**
 * The strategy a requested name runs: the deprecated aliases map to their current names (`baseline` -> `lexical`,
 * `hybrid_graph` -> `hybrid`) and upstream's `semantic` to `hybrid`. No name stays undefined: the caller's default
 * (the tenant's retrieval policy, on the server) decides then.
 */
export function normalizeStrategy(value: StrategyInput): Strategy;
export function normalizeStrategy(value: StrategyInput | undefined): Strategy | undefined;
export function normalizeStrategy(value: StrategyInput | undefined): Strategy | undefined {
  if (value === undefined) return undefined;
  if (Object.hasOwn(STRATEGY_UPSTREAM_NAMES, value)) return STRATEGY_UPSTREAM_NAMES[value as StrategyUpstreamName];
  return isStrategyAlias(value) ? STRATEGY_ALIASES[value] : (value as Strategy);
}

/**
 * A strategy named in the vocabulary of the request that chose it, as `graph/trace` answers `strategy.applied`: its
 * legacy name when the request sent a legacy alias or no strategy at all (the legacy trace's reader), its current
 * name otherwise.
 */
export function strategyInRequestVocabulary(strategy: Strategy, requested: StrategyInput | undefined): StrategyInput {
  return requested === undefined || isStrategyAlias(requested) ? LEGACY_STRATEGY_NAMES[strategy] : strategy;
}
