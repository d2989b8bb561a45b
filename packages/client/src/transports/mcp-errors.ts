import { ConnectionError, createApiError, MemoryApiError, TimeoutError } from '../errors.js';
import { errorFromEnvelope, errorFromStatus, isEnvelope, type ResponseOrigin } from './envelope.js';

/**
 * A non-2xx HTTP answer seen by the MCP transport's fetch. Thrown from inside the MCP SDK's request path and
 * turned into the client's typed error once the operation is known.
 */
export class McpHttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly retryAfter: string | null,
    readonly requestId: string | null,
  ) {
    super(`The MCP endpoint answered ${status}`);
    this.name = 'McpHttpFailure';
  }
}

/** The fetch itself failed (connection refused, DNS, reset). */
export class McpNetworkFailure extends Error {
  constructor(cause: unknown) {
    super('The MCP endpoint could not be reached', { cause });
    this.name = 'McpNetworkFailure';
  }
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 8; ) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function hasStringCode(value: unknown, code: string): boolean {
  return value instanceof Error && (value as Error & { code?: unknown }).code === code;
}

// JSON-RPC error codes (MCP SDK `ProtocolErrorCode`) that mean the request itself was wrong.
const INVALID_REQUEST_CODES = new Set([-32700, -32600, -32602]);
const METHOD_NOT_FOUND_CODE = -32601;

function fromProtocolError(error: Error & { code: number }, origin: ResponseOrigin): MemoryApiError {
  const invalid = INVALID_REQUEST_CODES.has(error.code);
  const notFound = error.code === METHOD_NOT_FOUND_CODE;
  return createApiError({
    code: invalid ? 'INVALID_REQUEST' : notFound ? 'NOT_FOUND' : 'INTERNAL_ERROR',
    message: `${error.message} (${origin.operationId}: ${origin.route})`,
    status: null,
    type: invalid ? 'validation_error' : notFound ? 'not_found_error' : 'internal_error',
    retryable: false,
    details: { jsonRpcCode: error.code },
    endpoint: origin.route,
    operationId: origin.operationId,
    cause: error,
  });
}

/** Maps whatever the MCP SDK threw to the client's error classes (same classes as the HTTP transport). */
export function errorFromMcpFailure(error: unknown, origin: ResponseOrigin, timeoutMs: number): unknown {
  const chain = causeChain(error);
  const context = { operationId: origin.operationId, endpoint: origin.route, cause: error };
  for (const link of chain) {
    if (MemoryApiError.isInstance(link)) return link;
    if (link instanceof McpHttpFailure) {
      const failureOrigin = { ...origin, status: link.status, retryAfter: link.retryAfter, requestId: link.requestId };
      return isEnvelope(link.body) && link.body.ok === false
        ? errorFromEnvelope(link.body, failureOrigin)
        : errorFromStatus(failureOrigin, link.body);
    }
    if (link instanceof McpNetworkFailure) {
      return new ConnectionError(
        `Could not reach the memory service (${origin.operationId}: ${origin.route})`,
        context,
      );
    }
  }
  for (const link of chain) {
    if (hasStringCode(link, 'REQUEST_TIMEOUT')) {
      return new TimeoutError(`No response within ${timeoutMs} ms (${origin.operationId}: ${origin.route})`, context);
    }
    if (['CONNECTION_CLOSED', 'NOT_CONNECTED', 'SEND_FAILED'].some((code) => hasStringCode(link, code))) {
      return new ConnectionError(`The MCP connection failed (${origin.operationId}: ${origin.route})`, context);
    }
    if (link instanceof Error && typeof (link as Error & { code?: unknown }).code === 'number') {
      return fromProtocolError(link as Error & { code: number }, origin);
    }
  }
  return error;
}
