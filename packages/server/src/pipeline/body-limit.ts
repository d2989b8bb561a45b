import { API_PREFIX, LIMITS, makeApiError, operationList, TRANSFER_LIMITS } from '@memory-service/contract';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorResponse } from '../api-error.js';

/** The paths whose body is streamed (`stream: 'request'`: `POST /management/import`), with their own cap. */
const STREAMED_BODY_PATHS = new Set(
  operationList
    .filter((operation) => operation.stream === 'request')
    .map((operation) => `${API_PREFIX}${operation.path}`),
);

/**
 * Hono's `bodyLimit()` at the contract's cap (`LIMITS.requestBodyBytes`, 1 MiB): a larger body is refused from its
 * `Content-Length`, or as soon as a chunked body passes the cap, with 400 INVALID_REQUEST naming `body`, before
 * anything parses it.
 */
export function limitRequestBody({
  maxBytes = LIMITS.requestBodyBytes,
  streamedMaxBytes = TRANSFER_LIMITS.importBodyBytes,
}: {
  maxBytes?: number;
  /** The cap of a streamed body (an import), counted as it arrives all the same. */
  streamedMaxBytes?: number;
} = {}): MiddlewareHandler {
  const limit = (cap: number) =>
    bodyLimit({
      maxSize: cap,
      onError: (context) =>
        errorResponse(
          context,
          makeApiError('INVALID_REQUEST', `The request body is larger than ${cap} bytes`, {
            field: 'body',
            maxBytes: cap,
          }),
        ),
    });
  const json = limit(maxBytes);
  const streamed = limit(streamedMaxBytes);
  return (context, next) => (STREAMED_BODY_PATHS.has(context.req.path) ? streamed : json)(context, next);
}
