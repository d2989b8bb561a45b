import { ApiErrorObjectSchema, errorTypeForStatus, isErrorCode, MetaSchema } from '@memory-service/contract';
import { CLIENT_ERROR_CODES, createApiError, type MemoryApiError } from '../errors.js';
import { parseRetryAfter } from '../retry.js';

/** Where a response came from, so errors can name the route. */
export interface ResponseOrigin {
  operationId: string;
  /** A readable label of the route, e.g. `POST /api/sdk/v1/memories/add` or `MCP tool add_memory`. */
  route: string;
  /** The HTTP status, when the transport saw one. */
  status: number | null;
  /** The `Retry-After` header, if any. */
  retryAfter?: string | null;
  /** The `x-request-id` header, if any. */
  requestId?: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value has the envelope's shape (`ok` boolean). */
export function isEnvelope(value: unknown): value is Record<string, unknown> & { ok: boolean } {
  return isRecord(value) && typeof value.ok === 'boolean';
}

function retryAfterSeconds(details: Record<string, unknown>, origin: ResponseOrigin): number | null {
  const fromDetails = details.retryAfterSeconds;
  if (typeof fromDetails === 'number' && Number.isFinite(fromDetails)) return Math.max(0, fromDetails);
  return parseRetryAfter(origin.retryAfter);
}

/** Turns the `error` of an error envelope into the matching error class. */
export function errorFromEnvelope(envelope: Record<string, unknown>, origin: ResponseOrigin): MemoryApiError {
  const parsed = ApiErrorObjectSchema.safeParse(envelope.error);
  if (!parsed.success) return errorFromStatus(origin, envelope);
  const error = parsed.data;
  const meta = MetaSchema.partial().safeParse(envelope.meta);
  const details = error.details ?? {};
  // A code this contract version does not know (a newer server) keeps its class and retryable flag, not its name.
  const serverCode = error.code;
  const known = isErrorCode(serverCode);
  return createApiError({
    code: known ? serverCode : CLIENT_ERROR_CODES.unknownServerCode,
    message: `${error.message} (${origin.operationId}: ${origin.route})`,
    status: error.status,
    type: error.type,
    retryable: error.retryable,
    details: known ? details : { ...details, serverCode },
    requestId: (meta.success ? meta.data.requestId : undefined) ?? origin.requestId ?? null,
    endpoint: (meta.success ? meta.data.endpoint : undefined) ?? origin.route,
    operationId: origin.operationId,
    retryAfterSeconds: retryAfterSeconds(details, origin),
  });
}

/** An error for a response that carried no usable envelope: classified by its HTTP status alone. */
export function errorFromStatus(origin: ResponseOrigin, body?: unknown): MemoryApiError {
  const status = origin.status;
  const failed = status === null || status >= 400;
  const preview = typeof body === 'string' ? body.slice(0, 200) : undefined;
  return createApiError({
    code: failed && status !== null ? (`HTTP_${status}` as const) : CLIENT_ERROR_CODES.invalidResponse,
    message: failed
      ? `The server answered ${status ?? 'without a status'} with no error envelope (${origin.operationId}: ${origin.route})`
      : `The server answered ${status} with no envelope (${origin.operationId}: ${origin.route})`,
    status,
    type: status === null || !failed ? 'unknown_error' : errorTypeForStatus(status),
    // What HTTP itself says may be repeated: 408 (the server gave up waiting for the request), 429, and 5xx.
    retryable: status === 408 || status === 429 || (status !== null && status >= 500),
    details: preview === undefined ? {} : { body: preview },
    requestId: origin.requestId ?? null,
    endpoint: origin.route,
    operationId: origin.operationId,
    retryAfterSeconds: parseRetryAfter(origin.retryAfter),
  });
}

/** Returns the envelope's `data`, or throws the typed error the envelope (or the status) describes. */
export function unwrapEnvelope(body: unknown, origin: ResponseOrigin): unknown {
  if (!isEnvelope(body)) throw errorFromStatus(origin, body);
  if (body.ok) return body.data;
  throw errorFromEnvelope(body, origin);
}
