import {
  type ApiErrorObject,
  buildMeta,
  type Envelope,
  errorEnvelope,
  featureFlagErrorCode,
  IDEMPOTENCY,
  makeApiError,
  type OperationDefinition,
  type OperationId,
  type RouteFeatureFlag,
  requestScope,
  successEnvelope,
  zodErrorToApiError,
} from '@memory-service/contract';
import { type Answer, type FirstRun, idempotencyKeyOf } from '../admission/idempotency.js';
import type { RateLimitDecision } from '../admission/rate-limiter.js';
import { ApiError } from '../api-error.js';
import { describeError } from '../describe-error.js';
import { deadlineExceeded, runInRequestScope } from '../request-scope.js';
import type { Services } from '../services.js';
import { DatabaseClosedError } from '../store/database-connections.js';
import { tenantKey } from '../store/tenant-key.js';
import { authenticate } from './authenticate.js';
import type { Caller, HandlerContext, HandlerTable } from './handler-types.js';
import { infrastructureFailure } from './infrastructure-error.js';
import { RequestTenant } from './request-tenant.js';

/** One call of an operation, from whichever transport. */
export interface OperationCall {
  operation: OperationDefinition;
  /** Reads the unvalidated input (the parsed body, or query and path parameters); called after auth. */
  readInput: () => Promise<unknown>;
  authorization: string | null | undefined;
  /** The Idempotency-Key header (HTTP only): a write with one runs once per key (idempotency.ts). */
  idempotencyKey?: string | null | undefined;
  clientIp: string | null;
  endpoint: string;
  requestId: string;
}

/** The outcome: a status, the envelope and headers to send. */
export interface OperationResult {
  status: number;
  envelope: Envelope<unknown>;
  headers: Record<string, string>;
}

function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}

function rateLimited(decision: RateLimitDecision, who: string): ApiError {
  return new ApiError(
    'RATE_LIMITED',
    `Rate limit exceeded for this ${who}; retry after ${decision.retryAfterSeconds} s`,
    {
      retryAfterSeconds: decision.retryAfterSeconds,
      limit: decision.limit,
    },
  );
}

/** How a call is answered: its envelope, with the headers the steps before collected. */
function responder(services: Services, call: OperationCall, headers: Record<string, string>) {
  const meta = () => buildMeta(call.endpoint, call.requestId, services.now());
  const finish = (status: number, body: Envelope<unknown>): OperationResult => ({ status, envelope: body, headers });
  const fail = (error: ApiErrorObject) => {
    // Any error that says when to come back (rate limits, a busy queue, a deadline) says it in the header too.
    const retryAfter = error.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number' && headers['Retry-After'] === undefined)
      headers['Retry-After'] = String(retryAfter);
    return finish(error.status, errorEnvelope(error, meta()));
  };
  const succeed = (status: number, data: unknown) => finish(status, successEnvelope(data, meta()));
  const replay = (answer: Answer) => ('error' in answer ? fail(answer.error) : succeed(answer.status, answer.data));
  return { fail, succeed, replay };
}

/**
 * Who may run the call, before its input is read: the client address's rate limit, the credential, the key's rate
 * limit and the operation's feature flag. Throws the refusal; the limits' headers are set either way.
 */
async function admitCaller(
  services: Services,
  call: OperationCall,
  now: Date,
  headers: Record<string, string>,
): Promise<Caller> {
  const { operation } = call;
  if (services.ipRateLimiter.enabled && call.clientIp !== null) {
    const decision = services.ipRateLimiter.take(`ip:${call.clientIp}`, now.getTime());
    if (!decision.allowed) {
      Object.assign(headers, rateLimitHeaders(decision));
      throw rateLimited(decision, 'client address');
    }
  }
  const caller: Caller = await authenticate(services, operation.auth, call.authorization);
  if (services.keyRateLimiter.enabled && caller.kind !== 'anonymous') {
    const decision = services.keyRateLimiter.take(`key:${caller.keyId ?? 'admin'}`, now.getTime());
    Object.assign(headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimited(decision, 'API key');
  }
  if (operation.featureFlag !== undefined) assertFlag(services, operation.featureFlag);
  return caller;
}

/**
 * The handler's run: in the tenant's lane of its kind (reads or writes) and under the request's deadline, with the
 * tenant database leased while the handler runs (also past the deadline, until the abandoned work ends), so an
 * eviction or a mapping change never closes it under the handler. Returns the status the handler chose and its data.
 */
async function runHandler(
  services: Services,
  handlers: HandlerTable,
  request: { call: OperationCall; caller: Caller; input: unknown; now: Date; admission: FirstRun | undefined },
): Promise<{ status: number; data: unknown }> {
  const { call, caller, input, now, admission } = request;
  const { operation } = call;
  // The table has a handler for every id (HandlerTable); the input was parsed by this operation's schema.
  const handler = handlers[operation.id as OperationId] as (
    input: unknown,
    context: HandlerContext,
  ) => Promise<unknown>;
  let status: number = operation.successStatus;
  const scope = requestScope(operation, input);
  const tenant = new RequestTenant(() =>
    services.resolver.lease(caller.ownerId, scope.tenantId, now, { createTenant: operation.createsTenant }),
  );
  const context: HandlerContext = {
    operation,
    caller,
    scope,
    now,
    requestId: call.requestId,
    services,
    tenant: () => tenant.get(),
    setStatus: (value) => {
      status = value;
    },
  };
  const run = () => handler(input, context).finally(() => tenant.release());
  const lane = tenantKey(caller.ownerId, scope.tenantId);
  const data = await withDeadline(services, (signal) => {
    const work = runInRequestScope(signal, () =>
      caller.kind === 'anonymous'
        ? run()
        : services.tenantGate.run(lane, signal, run, operation.readOnly ? 'read' : 'write'),
    );
    admission?.settle(work, () => status);
    return work;
  });
  return { status, data };
}

/**
 * The contract's error for what a call threw: its own ApiError; SERVER_BUSY for a database closed under it (shutting
 * down, or evicted under a long request: nothing ran, a retry is answered normally); the infrastructure code of a
 * failure outside the server (logged with its cause's code, never its message, which may hold a path); otherwise
 * INTERNAL_ERROR, logged with the request id.
 */
function failureOf(services: Services, call: OperationCall, error: unknown): ApiErrorObject {
  const where = { requestId: call.requestId, operation: call.operation.id };
  if (error instanceof ApiError) return error.toObject();
  if (error instanceof DatabaseClosedError) {
    services.logger.info('request met a closed database', where);
    return makeApiError('SERVER_BUSY', 'The server is closing this database (shutting down); retry the request', {
      retryAfterSeconds: 1,
    });
  }
  const infrastructure = infrastructureFailure(error);
  if (infrastructure !== null) {
    const { error: apiError, cause } = infrastructure;
    services.logger[apiError.retryable ? 'warn' : 'error']('infrastructure failure', {
      ...where,
      code: apiError.code,
      cause,
    });
    return apiError;
  }
  services.logger.error('unhandled error', { ...where, error: describeError(error) });
  return makeApiError('INTERNAL_ERROR', 'An internal error occurred; it has been logged with the request id');
}

/**
 * The one pipeline every route and MCP tool goes through: IP rate limit -> auth -> key rate limit ->
 * feature flag -> validation -> idempotency key -> (lazy) tenant resolution -> handler -> envelope.
 */
export async function runOperation(
  services: Services,
  handlers: HandlerTable,
  call: OperationCall,
): Promise<OperationResult> {
  const { operation } = call;
  const now = services.now();
  const headers: Record<string, string> = {};
  const answer = responder(services, call, headers);
  try {
    const caller = await admitCaller(services, call, now, headers);
    const idempotencyKey = idempotencyKeyOf(operation, call.idempotencyKey);
    const rawInput = (await call.readInput()) ?? {};
    const parsed = operation.input.safeParse(rawInput);
    if (!parsed.success) return answer.fail(zodErrorToApiError(parsed.error, rawInput, operation.fieldCodes));
    // A write with an Idempotency-Key runs once per key; a retry gets the first answer again.
    const admission =
      idempotencyKey === undefined
        ? undefined
        : await services.idempotency.admit(caller.ownerId, idempotencyKey, operation, rawInput);
    if (admission?.kind === 'replay') {
      headers[IDEMPOTENCY.replayedHeader] = 'true';
      return answer.replay(admission.answer);
    }
    const { status, data } = await runHandler(services, handlers, {
      call,
      caller,
      input: parsed.data,
      now,
      admission,
    });
    return answer.succeed(status, data);
  } catch (error) {
    return answer.fail(failureOf(services, call, error));
  }
}

/**
 * Runs a request's work under its deadline (MEMORY_REQUEST_DEADLINE_MS). Past it the request answers
 * REQUEST_DEADLINE_EXCEEDED at once and the signal aborts: database statements and inference not yet started are
 * dropped (`src/request-scope.ts`), so the abandoned work ends at its next step instead of running on.
 */
async function withDeadline<T>(services: Services, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadlineMs = services.config.requestDeadlineMs;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = deadlineExceeded(deadlineMs);
      controller.abort(error);
      reject(error);
    }, deadlineMs);
  });
  const running = work(controller.signal);
  // The work may still settle after the deadline answered; its outcome is dropped, never unhandled.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function assertFlag(services: Services, flag: RouteFeatureFlag): void {
  if (services.config.flags[flag]) return;
  throw new ApiError(featureFlagErrorCode(flag), `This endpoint is disabled (${flag}=false)`);
}
