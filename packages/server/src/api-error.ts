import { type ApiErrorObject, type ErrorCode, makeApiError } from '@memory-service/contract';

/** The error a handler throws: a contract code, a message safe to show, optional details. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly status: number | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
    this.status = status;
  }

  /** The contract's error object. */
  toObject(): ApiErrorObject {
    return makeApiError(this.code, this.message, this.details, this.status);
  }
}
