import type * as z from 'zod';
import type { HttpResponse } from './http.js';
import { ErrorEnvelopeShape, errorTypeForStatus, SuccessEnvelopeShape } from './shapes.js';

/** A check's assertion that did not hold; its message is the reason the report shows. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
}

/** Thrown by a check that cannot run here (a feature flag off, a missing prerequisite); reported as skipped. */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
}

/** Fails the check with `reason` unless `condition` holds. */
export function assert(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new CheckFailure(reason);
}

/** Skips the check unless a value an earlier check produced is there. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new CheckSkipped(`needs ${what}, which did not pass`);
  return value;
}

/** A short rendering of a value for a failure reason. */
export function preview(value: unknown, length = 300): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

/** Fails with the first issues of a zod parse, naming the paths. */
export function expectShape<T>(schema: z.ZodType<T>, value: unknown, label: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 4)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  throw new CheckFailure(`${label} does not match the contract: ${issues}`);
}

function describe(response: HttpResponse): string {
  const error = (response.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error === 'object')
    return `${response.status} ${String(error.code)}: ${preview(error.message, 160)}`;
  return `${response.status} ${preview(response.text, 200)}`;
}

/** The `data` of a success envelope with the given status (the envelope's own shape is checked too). */
export function expectSuccess(
  response: HttpResponse,
  status: number | readonly number[] = 200,
): Record<string, unknown> {
  const statuses = typeof status === 'number' ? [status] : status;
  assert(statuses.includes(response.status), `expected HTTP ${statuses.join(' or ')}, got ${describe(response)}`);
  const envelope = expectShape(SuccessEnvelopeShape, response.json, 'the success envelope');
  return envelope.data;
}

/** Checks an error envelope: the status, one of the codes, and the error object's own rules (Errors). */
export function expectError(
  response: HttpResponse,
  expected: { status: number | readonly number[]; code?: string | readonly string[] },
): { code: string; message: string; details?: Record<string, unknown> } {
  const statuses = typeof expected.status === 'number' ? [expected.status] : expected.status;
  const codes =
    expected.code === undefined ? undefined : typeof expected.code === 'string' ? [expected.code] : expected.code;
  const want = `HTTP ${statuses.join('/')}${codes ? ` ${codes.join(' or ')}` : ''}`;
  assert(statuses.includes(response.status), `expected ${want}, got ${describe(response)}`);
  const envelope = expectShape(ErrorEnvelopeShape, response.json, 'the error envelope');
  const error = envelope.error;
  assert(codes === undefined || codes.includes(error.code), `expected ${want}, got ${describe(response)}`);
  assert(
    error.status === response.status,
    `error.status ${error.status} differs from the HTTP status ${response.status}`,
  );
  const type = errorTypeForStatus(response.status);
  assert(error.type === type, `error.type is ${error.type}, the contract's type for ${response.status} is ${type}`);
  return error;
}

/** Retries an assertion for a few seconds: a write may become searchable a moment after it is acknowledged. */
export async function eventually<T>(attempt: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof CheckFailure) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
