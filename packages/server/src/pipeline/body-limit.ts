import { LIMITS, makeApiError } from '@memory-service/contract';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorResponse } from '../api-error.js';

/**
 * Hono's `bodyLimit()` at the contract's cap (`LIMITS.requestBodyBytes`, 1 MiB): a larger body is refused from its
 * `Content-Length`, or as soon as a chunked body passes the cap, with 400 INVALID_REQUEST naming `body`, before
 * anything parses it.
 */
export function limitRequestBody({
  maxBytes = LIMITS.requestBodyBytes,
}: {
  maxBytes?: number;
} = {}): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (context) =>
      errorResponse(
        context,
        makeApiError('INVALID_REQUEST', `The request body is larger than ${maxBytes} bytes`, {
          field: 'body',
          maxBytes,
        }),
      ),
  });
}
