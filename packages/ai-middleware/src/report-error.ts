/** The memory operation that failed, as told to `onError`. */
export type MemoryOperation =
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
  console.warn(`[memory] ${operation} failed; the model call continues without memory: ${describe(error)}`);
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
