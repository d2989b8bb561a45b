import type { ErrorCode, ErrorType } from '@memory-service/contract';

// A registry key shared by every copy of this package, so `isInstance` works where `instanceof` cannot.
const MARKER = Symbol.for('@memory-service/client.error');

/** Codes the client itself gives, for failures that never reached (or never came back from) the server. */
export const CLIENT_ERROR_CODES = {
  connection: 'CONNECTION_ERROR',
  timeout: 'TIMEOUT',
  invalidResponse: 'INVALID_RESPONSE',
  unsupportedOperation: 'UNSUPPORTED_OPERATION',
  mcpToolError: 'MCP_TOOL_ERROR',
  mcpClientMissing: 'MCP_CLIENT_MISSING',
  aborted: 'ABORTED',
  /** The server sent a code this version of the contract does not know; the server's code is in `details.serverCode`. */
  unknownServerCode: 'UNKNOWN_SERVER_CODE',
} as const;

/** A code the client gives itself, or `HTTP_<status>` for an answer that carried no error envelope. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES] | `HTTP_${number}`;

/** Every `code` a client error can have: the contract's error codes plus the client's own. */
export type MemoryErrorCode = ErrorCode | ClientErrorCode;

/** What every client error carries; the server's error object plus where the call went. */
export interface MemoryApiErrorOptions {
  code: MemoryErrorCode;
  message: string;
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  type: ErrorType;
  retryable: boolean;
  details?: Record<string, unknown> | undefined;
  requestId?: string | null | undefined;
  endpoint?: string | null | undefined;
  operationId?: string | null | undefined;
  retryAfterSeconds?: number | null | undefined;
  cause?: unknown;
}

type ErrorClass<Instance> = { readonly kind: string; readonly prototype: Instance };

/** Base class of every error the client throws; `MemoryApiError.isInstance(error)` works across package copies. */
export class MemoryApiError extends Error {
  /** The class name recorded in the marker; stable under minification. */
  static readonly kind: string = 'MemoryApiError';
  /** The contract's error code (`RATE_LIMITED`, `SESSION_NOT_FOUND`, ...) or one of `CLIENT_ERROR_CODES`. */
  readonly code: MemoryErrorCode;
  readonly status: number | null;
  readonly type: ErrorType;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  readonly requestId: string | null;
  readonly endpoint: string | null;
  readonly operationId: string | null;
  /** How long the server asked to wait (`details.retryAfterSeconds` or `Retry-After`), if it did. */
  readonly retryAfterSeconds: number | null;

  constructor(options: MemoryApiErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    const kinds: string[] = [];
    // The class and its ancestors, most specific first: `isInstance` of any of them matches.
    for (
      let current: { kind?: unknown } | null = new.target;
      current !== null;
      current = Object.getPrototypeOf(current)
    ) {
      if (Object.hasOwn(current, 'kind') && typeof current.kind === 'string') kinds.push(current.kind);
    }
    Object.defineProperty(this, MARKER, { value: kinds, enumerable: false });
    this.name = kinds[0] ?? 'MemoryApiError';
    this.code = options.code;
    this.status = options.status;
    this.type = options.type;
    this.retryable = options.retryable;
    this.details = options.details ?? {};
    this.requestId = options.requestId ?? null;
    this.endpoint = options.endpoint ?? null;
    this.operationId = options.operationId ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }

  /** Whether a value is an error of this class (or a subclass), even when it comes from another copy of the package. */
  static isInstance<This extends ErrorClass<MemoryApiError>>(this: This, value: unknown): value is This['prototype'] {
    if (typeof value !== 'object' || value === null) return false;
    const kinds: unknown = (value as { [MARKER]?: unknown })[MARKER];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class it is called on, so AuthError.isInstance checks AuthError.
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** 401 and 403: a missing, malformed, unknown or expired key, or a feature switched off. */
export class AuthError extends MemoryApiError {
  static override readonly kind: string = 'AuthError';
  override readonly name = 'AuthError' as const;
}

/** 400 and 409 (and the other 4xx validation statuses): the request was refused as it stands. */
export class ValidationError extends MemoryApiError {
  static override readonly kind: string = 'ValidationError';
  override readonly name = 'ValidationError' as const;
}

/** 404: the memory, session, snapshot, skill file, tenant or key does not exist. */
export class NotFoundError extends MemoryApiError {
  static override readonly kind: string = 'NotFoundError';
  override readonly name = 'NotFoundError' as const;
}

/** 429: too many requests; `retryAfterSeconds` says how long to wait. */
export class RateLimitError extends MemoryApiError {
  static override readonly kind: string = 'RateLimitError';
  override readonly name = 'RateLimitError' as const;
}

/** 500 and above: the server failed. */
export class InternalError extends MemoryApiError {
  static override readonly kind: string = 'InternalError';
  override readonly name = 'InternalError' as const;
}

/** Where the failure happened, for errors raised by the client itself. */
export interface ClientErrorContext {
  operationId?: string | null | undefined;
  endpoint?: string | null | undefined;
  cause?: unknown;
}

/** The request never got a response: connection refused, DNS failure, reset, or the MCP session closed. */
export class ConnectionError extends MemoryApiError {
  static override readonly kind: string = 'ConnectionError';
  override readonly name = 'ConnectionError' as const;
  constructor(message: string, context: ClientErrorContext = {}) {
    super({
      ...context,
      message,
      code: CLIENT_ERROR_CODES.connection,
      status: null,
      type: 'unknown_error',
      retryable: true,
    });
  }
}

/** An attempt took longer than `timeoutMs`, or the whole call (retries included) longer than `totalTimeoutMs`. */
export class TimeoutError extends MemoryApiError {
  static override readonly kind: string = 'TimeoutError';
  override readonly name = 'TimeoutError' as const;
  constructor(message: string, context: ClientErrorContext = {}) {
    super({
      ...context,
      message,
      code: CLIENT_ERROR_CODES.timeout,
      status: null,
      type: 'unknown_error',
      retryable: true,
    });
  }
}

/** The call's `signal` was aborted, before or during an attempt or while waiting to retry; never retried. */
export class RequestAbortedError extends MemoryApiError {
  static override readonly kind: string = 'RequestAbortedError';
  override readonly name = 'RequestAbortedError' as const;
  constructor(message: string, context: ClientErrorContext = {}) {
    super({
      ...context,
      message,
      code: CLIENT_ERROR_CODES.aborted,
      status: null,
      type: 'unknown_error',
      retryable: false,
    });
  }
}

/** The chosen transport cannot carry this method (the MCP transport exposes only the operations that have a tool). */
export class UnsupportedOperationError extends MemoryApiError {
  static override readonly kind: string = 'UnsupportedOperationError';
  override readonly name = 'UnsupportedOperationError' as const;
  constructor(message: string, context: ClientErrorContext = {}) {
    super({
      ...context,
      message,
      code: CLIENT_ERROR_CODES.unsupportedOperation,
      status: null,
      type: 'unknown_error',
      retryable: false,
    });
  }
}

const classByType = {
  auth_error: AuthError,
  validation_error: ValidationError,
  not_found_error: NotFoundError,
  rate_limit_error: RateLimitError,
  internal_error: InternalError,
  unknown_error: MemoryApiError,
} as const satisfies Record<ErrorType, typeof MemoryApiError>;

/** Builds the error class that matches the error's `type` (unknown types give the base class). */
export function createApiError(options: MemoryApiErrorOptions): MemoryApiError {
  const ErrorClassForType = classByType[options.type] ?? MemoryApiError;
  return new ErrorClassForType(options);
}
