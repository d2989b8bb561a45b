import { type ApiErrorObject, buildMeta, type ErrorCode, errorEnvelope, makeApiError } from '@memory-service/contract';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

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

/** Answers with the contract's error envelope, under the request's id (`requestIds()` set it) and path. */
export function errorResponse(context: Context, error: ApiErrorObject, headers: Record<string, string> = {}): Response {
  const meta = buildMeta(context.req.path, context.get('requestId'));
  return context.json(errorEnvelope(error, meta), error.status as ContentfulStatusCode, headers);
}
