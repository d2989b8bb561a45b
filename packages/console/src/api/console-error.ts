import { MemoryApiError } from '@memory-service/client';

/** An error as the console shows it: the contract's `code` and `message`, plus what helps to trace it. */
export interface ConsoleError {
  /** The contract's error code (`INVALID_API_KEY`, `MEMORY_NOT_FOUND`, ...) or the client's (`CONNECTION_ERROR`, ...). */
  code: string;
  message: string;
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  requestId: string | null;
  /** The request field the server named, when it named one. */
  field: string | null;
}

/**
 * The error's own words without the ` (operationId: METHOD /api/...)` the client appends for developers' logs: a
 * person reads what went wrong, and the request id beside it finds the call in the server log.
 */
function wordsOf(error: MemoryApiError): string {
  if (error.operationId === null || !error.message.endsWith(')')) return error.message;
  const at = error.message.lastIndexOf(` (${error.operationId}: `);
  return at > 0 ? error.message.slice(0, at) : error.message;
}

/** Turns anything thrown into a `ConsoleError`; the client's typed errors keep their code and message. */
export function toConsoleError(error: unknown): ConsoleError {
  if (MemoryApiError.isInstance(error)) {
    const field = error.details['field'];
    return {
      code: error.code,
      message: wordsOf(error),
      status: error.status,
      requestId: error.requestId,
      field: typeof field === 'string' ? field : null,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'CONSOLE_ERROR', message, status: null, requestId: null, field: null };
}

/** Whether the error says the credential itself was refused (the fix is to sign in again). */
export function isCredentialError(error: ConsoleError): boolean {
  return ['MISSING_API_KEY', 'INVALID_API_KEY_FORMAT', 'INVALID_API_KEY', 'API_KEY_EXPIRED'].includes(error.code);
}
