import { API_PREFIX, type OperationData, type OperationId, type OperationRequest } from '@memory-service/contract';
import ky, { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { ConnectionError, RequestAbortedError, TimeoutError } from '../errors.js';
import type { CallSettings } from '../request-options.js';
import { backoffMs, jitterMs, shouldRetry } from '../retry.js';
import { errorFromEnvelope, errorFromStatus, isEnvelope, unwrapEnvelope } from './envelope.js';
import { buildHttpRequest } from './http-request.js';
import { bearerTokenFor, type Transport, type TransportSettings } from './transport.js';

/** What ky carries in `options.context` for the hooks: the call, so its errors can name the route. */
interface CallContext {
  operationId: OperationId;
  route: string;
  timeoutMs: number;
}

// Every error status: ky's own list must not veto a retry that `shouldRetry` allows (a retryable 409, say).
const ERROR_STATUSES = Array.from({ length: 200 }, (_, index) => 400 + index);

/** Turns what ky threw into the client's typed error; anything else (an abort, a bug) is returned as it is. */
function clientError(error: unknown, { operationId, route, timeoutMs }: CallContext): unknown {
  if (isHTTPError(error)) {
    const { headers, status } = error.response;
    const origin = {
      operationId,
      route,
      status,
      retryAfter: headers.get('retry-after'),
      requestId: headers.get('x-request-id'),
    };
    // `data` is the body ky already read: the envelope (JSON), a proxy's text, or undefined.
    return isEnvelope(error.data) && !error.data.ok
      ? errorFromEnvelope(error.data, origin)
      : errorFromStatus(origin, error.data);
  }
  const context = { operationId, endpoint: route, cause: error };
  if (isTimeoutError(error))
    return new TimeoutError(`No response within ${timeoutMs} ms (${operationId}: ${route})`, context);
  // A fetch that rejects with a TypeError is a network failure, even one whose message ky does not recognise.
  if (isNetworkError(error) || error instanceof TypeError) {
    return new ConnectionError(`Could not reach the memory service (${operationId}: ${route})`, context);
  }
  return error;
}

/**
 * The `sdk_http` transport: JSON over HTTP with ky, Bearer key, envelope unwrapped. ky runs the attempts: its
 * per-attempt `timeout`, its retry (backoff with jitter, `Retry-After` on 429 and 503) and a `beforeError` hook
 * that makes its errors typed; `shouldRetry` (shared with the MCP transport) decides whether to retry.
 */
export function createHttpTransport(settings: TransportSettings): Transport {
  const policy = settings.retry;
  const http = ky.create({
    prefix: `${settings.rootUrl}${API_PREFIX}`,
    headers: settings.headers,
    retry: {
      methods: ['get', 'post', 'put', 'patch', 'delete'],
      statusCodes: ERROR_STATUSES,
      // Only these: on other statuses ky would read the server's X-RateLimit-Reset (the key's window) as a wait.
      afterStatusCodes: [429, 503],
      maxRetryAfter: policy.maxRetryAfterMs,
      delay: (retryNumber) => backoffMs(retryNumber, policy),
      jitter: (delay) => jitterMs(delay, policy),
      backoffLimit: policy.maxDelayMs,
    },
    hooks: {
      beforeError: [
        ({ error, options }) => {
          const typed = clientError(error, options.context as unknown as CallContext);
          return typed instanceof Error ? typed : error;
        },
      ],
    },
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
  });

  async function send<Id extends OperationId>(
    operationId: Id,
    input: OperationRequest<Id>,
    call: CallSettings,
  ): Promise<OperationData<Id>> {
    const request = buildHttpRequest(operationId, input as Record<string, unknown>);
    const context: CallContext = {
      operationId,
      route: `${request.method} ${API_PREFIX}${request.path}`,
      timeoutMs: call.timeoutMs,
    };
    const token = bearerTokenFor(operationId, settings);
    try {
      const pending = http(request.path, {
        method: request.method,
        headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...call.headers },
        ...(request.searchParams === undefined ? {} : { searchParams: request.searchParams }),
        ...(request.json === undefined ? {} : { json: request.json }),
        ...(call.signal === undefined ? {} : { signal: call.signal }),
        timeout: call.timeoutMs,
        context: { ...context },
        retry: {
          limit: call.maxRetries,
          // false: no retry. For an HTTP error, undefined lets ky apply Retry-After; true retries with backoff.
          shouldRetry: ({ error }) => {
            if (call.signal?.aborted || !shouldRetry(clientError(error, context), operationId)) return false;
            return isHTTPError(error) ? undefined : true;
          },
        },
      });
      const response = await pending;
      // Read through ky, so the body is bounded by the same timeout.
      const text = await pending.text();
      return unwrapEnvelope(parseJson(text), {
        operationId,
        route: context.route,
        status: response.status,
        requestId: response.headers.get('x-request-id'),
      }) as OperationData<Id>;
    } catch (error) {
      if (call.signal?.aborted) {
        throw new RequestAbortedError(`The call was aborted (${operationId}: ${context.route})`, {
          operationId,
          endpoint: context.route,
          cause: call.signal.reason,
        });
      }
      throw clientError(error, context);
    }
  }

  return Object.assign(send, { transportName: 'sdk_http' as const, close: async () => {} });
}

/** The body as JSON, or the text itself when it is not JSON (a proxy's page): the envelope check classifies it. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
