import { isStrategyAlias, normalizeStrategy, type StrategyInput } from '@memory-service/contract';

// Shared by every copy of the package in the process, so each alias warns once per process.
const WARNED = Symbol.for('@memory-service/client.deprecation-warnings');

function warnedAliases(): Set<string> {
  const registry = globalThis as typeof globalThis & { [WARNED]?: Set<string> };
  registry[WARNED] ??= new Set<string>();
  return registry[WARNED];
}

/** Whether `MEMORY_SUPPRESS_DEPRECATION_WARNINGS` is `1`, `true`, `yes` or `on`. */
export function deprecationWarningsSuppressed(): boolean {
  const value = globalThis.process?.env?.MEMORY_SUPPRESS_DEPRECATION_WARNINGS ?? '';
  return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/** Forgets which aliases have warned (tests only). */
export function resetDeprecationWarnings(): void {
  warnedAliases().clear();
}

/** Maps `baseline`/`hybrid_graph` to `lexical`/`hybrid`, warning once per alias per process unless suppressed. */
export function normalizeStrategyInput<Input extends { strategy?: StrategyInput | undefined }>(input: Input): Input {
  const { strategy } = input;
  if (strategy === undefined || !isStrategyAlias(strategy)) return input;
  const normalized = normalizeStrategy(strategy);
  const warned = warnedAliases();
  if (!warned.has(strategy) && !deprecationWarningsSuppressed()) {
    warned.add(strategy);
    console.warn(
      `[@memory-service/client] strategy "${strategy}" is deprecated; use "${normalized}". ` +
        'This warning is shown once per process; set MEMORY_SUPPRESS_DEPRECATION_WARNINGS=1 to silence it.',
    );
  }
  return { ...input, strategy: normalized };
}
