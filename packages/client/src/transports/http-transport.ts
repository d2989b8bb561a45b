import {
  API_PREFIX,
  IDEMPOTENCY,
  type OperationData,
  type OperationId,
  type OperationRequest,
  operations,
} from '@memory-service/contract';
import ky, { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { type Deadline, startDeadline } from '../abort.js';
import { ConnectionError, RequestAbortedError, TimeoutError } from '../errors.js';
import type { CallSettings } from '../request-options.js';
import { backoffMs, jitterMs, parseRetryAfter, type RetryPolicy, shouldRetry } from '../retry.js';
import { errorFromEnvelope, errorFromStatus, isEnvelope, unwrapEnvelope } from './envelope.js';
import { buildHttpRequest } from './http-request.js';
import { bearerTokenFor, type Transport, type TransportSettings } from './transport.js';

/** What ky carries in `options.context` for the hooks: the call, so its errors can name the route. */
interface CallContext {
  operationId: OperationId;
  route: string;
  timeoutMs: number;
  totalTimeoutMs: number | false;
  deadline: Deadline;
}

// Every error status: ky's own list must not veto a retry that `shouldRetry` allows (a retryable 409, say).
const ERROR_STATUSES = Array.from({ length: 200 }, (_, index) => 400 + index);
// Only these: on other statuses ky would read the server's X-RateLimit-Reset (the key's window) as a wait.
const RETRY_AFTER_STATUSES = [429, 503];

/** The wait ky will make before retry number `retryNumber`, at most: `Retry-After` where ky honours it, else backoff. */
function plannedWaitMs(error: unknown, retryNumber: number, policy: RetryPolicy): number {
  if (isHTTPError(error) && RETRY_AFTER_STATUSES.includes(error.response.status)) {
    const seconds = parseRetryAfter(error.response.headers.get('retry-after'));
    if (seconds !== null) return Math.min(seconds * 1000, policy.maxRetryAfterMs);
  }
  return backoffMs(retryNumber, policy);
}

/** Turns what ky threw into the client's typed error; anything else (an abort, a bug) is returned as it is. */
function clientError(
  error: unknown,
  { operationId, route, timeoutMs, totalTimeoutMs, deadline }: CallContext,
): unknown {
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
  if (isTimeoutError(error)) {
    const limit =
      totalTimeoutMs !== false && deadline.passed() ? `the call's total of ${totalTimeoutMs} ms` : `${timeoutMs} ms`;
    return new TimeoutError(`No response within ${limit} (${operationId}: ${route})`, context);
  }
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
      afterStatusCodes: RETRY_AFTER_STATUSES,
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
      totalTimeoutMs: call.totalTimeoutMs,
      deadline: startDeadline(call.totalTimeoutMs),
    };
    const token = bearerTokenFor(operationId, settings);
    // A write carries one Idempotency-Key for all its attempts: the server answers a retry with the first answer.
    const idempotencyKey = operations[operationId].readOnly ? undefined : idempotencyKeyOf(call);
    const idempotent = idempotencyKey !== undefined;
    try {
      const pending = http(request.path, {
        method: request.method,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(idempotencyKey === undefined ? {} : { [IDEMPOTENCY.header]: idempotencyKey }),
          ...call.headers,
        },
        ...(request.searchParams === undefined ? {} : { searchParams: request.searchParams }),
        ...(request.json === undefined ? {} : { json: request.json }),
        ...(call.signal === undefined ? {} : { signal: call.signal }),
        // ky bounds each attempt by the smaller of the two, and aborts the one in flight at the total.
        timeout: call.timeoutMs,
        totalTimeout: call.totalTimeoutMs,
        context: { ...context },
        retry: {
          limit: call.maxRetries,
          // false: no retry. For an HTTP error, undefined lets ky apply Retry-After; true retries with backoff.
          shouldRetry: ({ error, retryCount }) => {
            if (call.signal?.aborted || !shouldRetry(clientError(error, context), operationId, { idempotent }))
              return false;
            // A wait that ends past the total would only end in a timeout: fail now, with the real reason.
            if (!context.deadline.fits(plannedWaitMs(error, retryCount, policy))) return false;
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

/**
 * The write's idempotency key: the caller's (`idempotencyKey`, or an `Idempotency-Key` header it set), else a new
 * random one: 128 bits from `crypto.getRandomValues`, which browsers offer on plain-HTTP pages too.
 */
function idempotencyKeyOf(call: CallSettings): string | undefined {
  if (call.idempotencyKey !== undefined) return call.idempotencyKey;
  const header = IDEMPOTENCY.header.toLowerCase();
  const given = Object.entries(call.headers).find(([name]) => name.toLowerCase() === header);
  if (given !== undefined) return given[1] === '' ? undefined : given[1];
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `idem_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The body as JSON, or the text itself when it is not JSON (a proxy's page): the envelope check classifies it. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
