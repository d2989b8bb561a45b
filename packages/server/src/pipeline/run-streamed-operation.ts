import {
  type ApiErrorObject,
  buildMeta,
  errorEnvelope,
  makeApiError,
  type OperationDefinition,
  successEnvelope,
  zodErrorToApiError,
} from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import { describeError } from '../describe-error.js';
import type { Services } from '../services.js';
import { authenticate } from './authenticate.js';
import type { HandlerTable, StreamedContext, StreamedHandler, StreamedOperationId } from './handler-types.js';
import { infrastructureFailure } from './infrastructure-error.js';
import { readQueryInput } from './read-input.js';

/** One call of a streamed operation over HTTP. */
export interface StreamedCall {
  operation: OperationDefinition;
  request: Request;
  pathParams: Record<string, string>;
  clientIp: string | null;
  endpoint: string;
  requestId: string;
}

const encoder = new TextEncoder();

/** Lines as a byte stream, pulled as the client reads (backpressure reaches the database reads). */
function ndjsonBody(lines: AsyncIterable<string>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const iterator = lines[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        // The status is sent: the stream ends without its trailer, which an import refuses as truncated.
        onError(error);
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/**
 * The path of the operations the table marks `stream` (export and import), beside `runOperation`: the same IP and
 * key rate limits, authentication and query validation, errors in the same envelope; then the handler's lines are
 * streamed as `application/x-ndjson`, or its data sent in the envelope. Unlike `runOperation` there is no request
 * deadline (an export streams as long as the client reads; an import's body is capped), no Idempotency-Key (an
 * import is an upsert by id: repeating it changes nothing) and no tenant lane (they open their own connections).
 */
export async function runStreamedOperation(
  services: Services,
  handlers: HandlerTable,
  call: StreamedCall,
): Promise<Response> {
  const { operation } = call;
  const now = services.now();
  const headers: Record<string, string> = {};
  const meta = () => buildMeta(call.endpoint, call.requestId, services.now());
  const fail = (error: ApiErrorObject) => {
    const retryAfter = error.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter);
    return Response.json(errorEnvelope(error, meta()), { status: error.status, headers });
  };
  try {
    if (services.ipRateLimiter.enabled && call.clientIp !== null) {
      const decision = services.ipRateLimiter.take(`ip:${call.clientIp}`, now.getTime());
      if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'client address');
    }
    const caller = await authenticate(services, operation.auth, call.request.headers.get('authorization'));
    if (services.keyRateLimiter.enabled) {
      const decision = services.keyRateLimiter.take(`key:${caller.keyId ?? 'admin'}`, now.getTime());
      if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'API key');
    }
    const rawInput = readQueryInput(new URL(call.request.url), call.pathParams);
    const parsed = operation.input.safeParse(rawInput);
    if (!parsed.success) return fail(zodErrorToApiError(parsed.error, rawInput, operation.fieldCodes));
    const context: StreamedContext = {
      operation,
      caller,
      now,
      requestId: call.requestId,
      services,
      body: operation.stream === 'request' && call.request.body !== null ? call.request.body : null,
    };
    const handler = handlers[operation.id as StreamedOperationId] as StreamedHandler<StreamedOperationId>;
    const answer = await handler(parsed.data as never, context);
    if (answer.kind === 'data') {
      return Response.json(successEnvelope(answer.data, meta()), { status: operation.successStatus, headers });
    }
    const body = ndjsonBody(answer.lines, (error) =>
      services.logger.error('streamed answer failed', {
        requestId: call.requestId,
        operation: operation.id,
        error: describeError(error),
      }),
    );
    return new Response(body, {
      status: operation.successStatus,
      headers: { ...headers, 'content-type': 'application/x-ndjson; charset=utf-8' },
    });
  } catch (error) {
    if (error instanceof ApiError) return fail(error.toObject());
    const infrastructure = infrastructureFailure(error);
    if (infrastructure !== null) return fail(infrastructure.error);
    services.logger.error('unhandled error', {
      requestId: call.requestId,
      operation: operation.id,
      error: describeError(error),
    });
    return fail(makeApiError('INTERNAL_ERROR', 'An internal error occurred; it has been logged with the request id'));
  }
}

function rateLimited(retryAfterSeconds: number, who: string): ApiError {
  return new ApiError('RATE_LIMITED', `Rate limit exceeded for this ${who}; retry after ${retryAfterSeconds} s`, {
    retryAfterSeconds,
  });
}
