import type { MemoryOperation } from '../report-error.js';

// A registry key shared by every copy of this package, so `isInstance` works where `instanceof` cannot.
const MARKER = Symbol.for('@memory-service/ai-middleware.time-budget-error');

/**
 * Told to `onError` (operation `timeBudget`) when the memory work before a model call did not finish within
 * `timeBudgetMs`: the model call went ahead without memory, and the memory calls still in flight were aborted.
 */
export class MemoryTimeBudgetError extends Error {
  override readonly name = 'MemoryTimeBudgetError' as const;
  readonly code = 'MEMORY_TIME_BUDGET_EXCEEDED' as const;
  /** The budget that ran out, in milliseconds. */
  readonly timeBudgetMs: number;
  /** The memory work that had not finished when it ran out. */
  readonly pending: readonly MemoryOperation[];

  constructor(timeBudgetMs: number, pending: readonly MemoryOperation[]) {
    const unfinished = pending.length === 0 ? '' : ` (still waiting on ${pending.join(', ')})`;
    super(`Memory did not answer within the time budget of ${timeBudgetMs} ms${unfinished}`);
    Object.defineProperty(this, MARKER, { value: true, enumerable: false });
    this.timeBudgetMs = timeBudgetMs;
    this.pending = pending;
  }

  /** Whether a value is a `MemoryTimeBudgetError`, even one from another copy of this package. */
  static isInstance(value: unknown): value is MemoryTimeBudgetError {
    return typeof value === 'object' && value !== null && (value as { [MARKER]?: unknown })[MARKER] === true;
  }
}
