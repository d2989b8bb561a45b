/**
 * The memory operation that failed, as told to `onError`; `timeBudget` when the work before a model call did not
 * finish within `timeBudgetMs` (the error is a `MemoryTimeBudgetError`).
 */
export type MemoryOperation =
  | 'timeBudget'
  | 'context.get'
  | 'sessions.start'
  | 'sessions.checkpoint'
  | 'sessions.compact'
  | 'capture'
  | 'extractQuery'
  | 'taskCompleted';

/** Told about every memory failure; the model call itself goes on without memory. */
export type MemoryErrorHandler = (error: unknown, details: { operation: MemoryOperation }) => void;

/** Reports one failure without ever throwing. */
export type ErrorReporter = (operation: MemoryOperation, error: unknown) => void;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The default handler: one `console.warn` line per failure. */
export const warnOnMemoryError: MemoryErrorHandler = (error, { operation }) => {
  const what = operation === 'timeBudget' ? 'time budget exceeded' : `${operation} failed`;
  console.warn(`[memory] ${what}; the model call continues without memory: ${describe(error)}`);
};

/** Wraps `onError` so that a handler that throws cannot break the model call either. */
export function createErrorReporter(onError: MemoryErrorHandler = warnOnMemoryError): ErrorReporter {
  return (operation, error) => {
    try {
      onError(error, { operation });
    } catch {
      // A failing error handler has nowhere left to report to; the model call must still go on.
    }
  };
}
