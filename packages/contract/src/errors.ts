import * as z from 'zod';
import { SCOPE_FIELDS } from './scope-placement.js';

/** Error types of the contract, by HTTP status family. */
export const ERROR_TYPES = [
  'auth_error',
  'validation_error',
  'not_found_error',
  'rate_limit_error',
  'internal_error',
  'unknown_error',
] as const;
export const ErrorTypeSchema = z.enum(ERROR_TYPES);
export type ErrorType = z.infer<typeof ErrorTypeSchema>;

/** Maps an HTTP status to the contract's error type. */
export function errorTypeForStatus(status: number): ErrorType {
  if (status === 401 || status === 403) return 'auth_error';
  if (status === 400 || status === 409 || status === 413 || status === 415 || status === 422) return 'validation_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'internal_error';
  return 'unknown_error';
}

function entry(status: number, retryable = status === 429 || status >= 500) {
  return { status, type: errorTypeForStatus(status), retryable } as const;
}

/** Every error code of the contract: `code -> { status, type, retryable }`. */
export const ERROR_CODES = {
  MISSING_API_KEY: entry(401),
  INVALID_API_KEY_FORMAT: entry(401),
  INVALID_API_KEY: entry(401),
  API_KEY_EXPIRED: entry(401),
  RATE_LIMITED: entry(429),
  INVALID_REQUEST: entry(400),
  QUERY_REQUIRED: entry(400),
  TENANT_ID_INVALID: entry(400),
  USER_ID_INVALID: entry(400),
  DATABASE_NOT_CONFIGURED: entry(400),
  TENANT_DATABASE_NOT_CONFIGURED: entry(404),
  TENANT_DATABASE_NOT_READY: entry(409, true),
  TENANT_DATABASE_CREDENTIALS_MISSING: entry(404),
  CANARY_ROLLOUT_BLOCKED: entry(409),
  MEMORY_SESSION_DISABLED: entry(403),
  MEMORY_CONSOLIDATION_DISABLED: entry(403),
  MEMORY_PROCEDURAL_DISABLED: entry(403),
  MEMORY_COMPACTION_DISABLED: entry(403),
  SESSION_ID_REQUIRED: entry(400),
  SESSION_CONTENT_REQUIRED: entry(400),
  INVALID_SESSION_STATUS: entry(400),
  SESSION_NOT_FOUND: entry(404),
  SESSION_NOT_ACTIVE: entry(409),
  SESSION_SNAPSHOT_NOT_FOUND: entry(404),
  SKILL_FILE_PATH_REQUIRED: entry(400),
  INTERNAL_ERROR: entry(500),
  // Passed through from the keys wrapper: the status is the one the wrapper gives, 500 when unknown.
  LEGACY_MCP_KEY_ERROR: entry(500),
  // Not in the contract's table; docs/architecture.md's decisions for routes the contract leaves open.
  NOT_FOUND: entry(404),
  MEMORY_NOT_FOUND: entry(404),
  SKILL_FILE_NOT_FOUND: entry(404),
  TENANT_NOT_FOUND: entry(404),
  KEY_NOT_FOUND: entry(404),
  METHOD_NOT_ALLOWED: entry(405),
  EMBEDDING_MODEL_NOT_ALLOWED: entry(400),
  TENANT_DATABASE_UNREACHABLE: entry(409),
  // Request isolation (docs/architecture.md#trust-and-work-isolation): a full work queue or a tenant at its concurrency limit, and a request past its
  // deadline. Both are 503 with `details.retryAfterSeconds` and a `Retry-After` header: retry later, nothing was kept.
  SERVER_BUSY: entry(503),
  // `/management/keys` takes the operator's credential (the admin token, or the CLI), never an API key (docs/architecture.md#trust-and-work-isolation).
  OPERATOR_CREDENTIAL_REQUIRED: entry(403),
  REQUEST_DEADLINE_EXCEEDED: entry(503),
  // A tool call of an MCP request (a JSON-RPC batch) whose answers already reached LIMITS.mcpResponseBytes: the call
  // is answered with this instead of its data (a read) or was never run (`details.limitBytes`). Sent alone, or in a
  // smaller batch, it succeeds: not retryable as it was sent.
  MCP_RESPONSE_BUDGET_EXCEEDED: entry(413),
  // A tenant or workspace database whose file is not a database or is damaged: refused, never started empty.
  TENANT_DATABASE_UNREADABLE: entry(500),
  // Infrastructure failures, each with its own code so that neither a client nor an operator takes them for a bug. A
  // disk or database at its size cap frees no space by itself and a refused token stays refused: both wait for an
  // operator, so they are the two 5xx codes a retry cannot help (retryable false).
  STORAGE_FULL: entry(507, false),
  TENANT_DATABASE_CREDENTIALS_REJECTED: entry(502, false),
  // A libSQL server that does not answer (refused, DNS, timeout, a 502/503/504 in front of it) and a process out of
  // file descriptors: both pass, so a retry later may succeed (`details.retryAfterSeconds`, `Retry-After`).
  TENANT_DATABASE_UNAVAILABLE: entry(503),
  SERVER_RESOURCES_EXHAUSTED: entry(503),
  // A write naming a new tenantId when the workspace already has MEMORY_TENANT_QUOTA tenants (`details.limit`).
  TENANT_QUOTA_EXCEEDED: entry(403),
  // memories/restore (an extension beyond the written contract) of a memory that is not soft-deleted.
  MEMORY_NOT_DELETED: entry(409),
  // A call whose scope names a userId may read shared memories (no userId) but not edit, forget or restore them:
  // they are every user's (`details.id`, `details.userId`).
  MEMORY_SHARED_READ_ONLY: entry(403),
  // The same for skill files, which are named by path: a userId-scoped skills/files/delete of a shared skill file (no
  // userId) is refused (`details.path`, `details.userId`); an upsert or promote writes the user's own file instead.
  SKILL_FILE_SHARED_READ_ONLY: entry(403),
  // A rule write (add, edit or forget of type or layer `rule`) over MCP by a key without the permission to write
  // rules there (`details.field`); the HTTP routes an app calls are not affected.
  RULE_WRITE_NOT_ALLOWED: entry(403),
  // Idempotent writes (idempotency.ts): the key was first used with another body or route (`details.field`); and the
  // key's first request is still running in another process (retry: `details.retryAfterSeconds`).
  IDEMPOTENCY_KEY_REUSED: entry(409),
  IDEMPOTENCY_KEY_IN_USE: entry(409, true),
} as const;

/** An error code of the contract. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The contract's error object (`envelope.error`). */
export const ApiErrorObjectSchema = z.object({
  type: ErrorTypeSchema,
  code: z.string(),
  message: z.string(),
  status: z.number().int(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ApiErrorObject = z.infer<typeof ApiErrorObjectSchema>;

/** Whether a string is one of the contract's error codes. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** Builds the contract's error object for a code; `status` overrides the table (used by pass-through codes). */
export function makeApiError(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  status?: number,
): ApiErrorObject {
  const base = ERROR_CODES[code];
  const finalStatus = status ?? base.status;
  return {
    type: status === undefined ? base.type : errorTypeForStatus(finalStatus),
    code,
    message,
    status: finalStatus,
    retryable: status === undefined ? base.retryable : finalStatus === 429 || finalStatus >= 500,
    ...(details === undefined ? {} : { details }),
  };
}

/** A rule that gives a field's validation failure a specific code instead of INVALID_REQUEST. */
export interface FieldCodeRule {
  /** Dotted path of the field (`sessionId`, `scope.tenantId`). */
  field: string;
  code: ErrorCode;
  /** `missing`: only when the value is absent or blank; `any`: any failure at that field. */
  when: 'missing' | 'any';
}

/** Scope fields have their own codes on every route (docs/architecture.md#tenancy-and-visibility). */
export const SCOPE_FIELD_CODES: readonly FieldCodeRule[] = [
  { field: 'scope.tenantId', code: 'TENANT_ID_INVALID', when: 'any' },
  { field: 'scope.userId', code: 'USER_ID_INVALID', when: 'any' },
  { field: 'tenantId', code: 'TENANT_ID_INVALID', when: 'any' },
  { field: 'userId', code: 'USER_ID_INVALID', when: 'any' },
];

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Scope fields sent beside `scope` instead of inside it: refused with a hint, since the most likely mistake is a
 * `userId` meant for the scope, which would otherwise store a record every user reads.
 */
const SCOPE_KEYS: ReadonlySet<string> = new Set(SCOPE_FIELDS);

/** One failing field of a zod error: an unrecognized key is named by its own dotted path, not its parent's. */
interface FieldIssue {
  path: PropertyKey[];
  field: string;
  code: string;
  message: string;
  unknown: boolean;
}

function fieldIssues(issue: z.core.$ZodIssue): FieldIssue[] {
  if (issue.code !== 'unrecognized_keys') {
    const field = issue.path.map(String).join('.') || 'body';
    return [{ path: issue.path, field, code: issue.code, message: issue.message, unknown: false }];
  }
  return issue.keys.map((key) => {
    const path = [...issue.path, key];
    const field = path.map(String).join('.');
    const hint = issue.path.length === 0 && SCOPE_KEYS.has(key) ? `; ${key} goes inside "scope"` : '';
    return { path, field, code: issue.code, message: `unknown field${hint}`, unknown: true };
  });
}

/**
 * Turns a zod error into the contract's error object: INVALID_REQUEST with `details.field` (dotted path),
 * or the specific code a rule names for that field. An unknown field (request schemas are strict, docs/architecture.md#the-operations-table)
 * is reported first and always as INVALID_REQUEST naming the field itself (`userId`, `scope.foo`): it is
 * refused because the server would otherwise drop it, whatever the value.
 */
export function zodErrorToApiError(
  error: z.ZodError,
  input: unknown,
  rules: readonly FieldCodeRule[] = [],
): ApiErrorObject {
  const issues = error.issues.flatMap(fieldIssues);
  const issue = issues.find((each) => each.unknown) ?? issues[0];
  const field = issue?.field ?? 'body';
  const allRules = issue?.unknown ? [] : [...rules, ...SCOPE_FIELD_CODES];
  for (const rule of allRules) {
    if (rule.field !== field) continue;
    if (rule.when === 'missing' && !isBlank(valueAt(input, issue?.path ?? []))) continue;
    return makeApiError(rule.code, `${field}: ${issue?.message ?? 'invalid value'}`, { field });
  }
  const message = issue ? `${field}: ${issue.message}` : 'Request validation failed';
  return makeApiError('INVALID_REQUEST', message, {
    field,
    issues: issues.slice(0, 10).map((each) => ({
      path: each.path.map(String).join('.'),
      code: each.code,
      message: each.message,
    })),
  });
}
