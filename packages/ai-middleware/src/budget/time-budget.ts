import type { RequestOptions } from '@memory-service/client';
import type { MemoryOperation } from '../report-error.js';

/**
 * The default time budget of the memory work before a model call: about 2.5 times the slowest `context/get` p95
 * measured (573 ms, 16 concurrent hybrid queries over 100k memories, BENCHMARKS.md), so a busy but healthy server fits,
 * while a hung one costs a user about what a model's own first token does.
 */
export const DEFAULT_TIME_BUDGET_MS = 1_500;

/** The clock of one turn's memory work before its model call. */
export interface TimeBudget {
  /** Aborts when the budget runs out or the model call's own signal aborts. */
  readonly signal: AbortSignal;
  /** Resolves (never rejects) when `signal` aborts. */
  readonly ended: Promise<void>;
  /** Whether the budget itself ran out (not the model call's signal). */
  exceeded(): boolean;
  /** The options of every memory call made before the model call: aborted at the budget, one attempt only. */
  requestOptions(): RequestOptions;
  /** Runs `work` as pending `operation` until it settles, so a budget that runs out can say what it waited on. */
  track<Value>(operation: MemoryOperation, work: Promise<Value>): Promise<Value>;
  /** The operations still running. */
  pending(): MemoryOperation[];
  /** Stops the clock; the signal no longer aborts. */
  stop(): void;
}

/** Starts the budget of one turn, ending at `timeBudgetMs` or when `callerSignal` aborts. */
export function startTimeBudget(timeBudgetMs: number, callerSignal: AbortSignal | undefined): TimeBudget {
  const controller = new AbortController();
  const running = new Map<number, MemoryOperation>();
  let nextId = 0;
  let exceeded = false;
  const timer = setTimeout(() => {
    exceeded = true;
    controller.abort(new DOMException(`The memory time budget of ${timeBudgetMs} ms ran out`, 'TimeoutError'));
  }, timeBudgetMs);
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const ended = new Promise<void>((resolve) => {
    if (controller.signal.aborted) resolve();
    else controller.signal.addEventListener('abort', () => resolve(), { once: true });
  });

  return {
    signal: controller.signal,
    ended,
    exceeded: () => exceeded,
    // The signal is the bound: a client timeout set to the same instant could win the race, and the call would be
    // reported as its own failure instead of the budget's. One attempt: the client's backoff (500 ms, then 1 s) would
    // spend the budget waiting, and a failure here costs only this turn's memory; the next turn asks again.
    requestOptions: () => ({ signal: controller.signal, maxRetries: 0 }),
    track: (operation, work) => {
      const id = nextId;
      nextId += 1;
      running.set(id, operation);
      return work.finally(() => running.delete(id));
    },
    pending: () => [...new Set(running.values())],
    stop: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
