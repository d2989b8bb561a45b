import { ApiError } from '../api-error.js';
import type { Logger } from '../logger.js';
import { Database, type DatabaseLocation } from '../store/database.js';
import { type AttachPolicy, AttachRefusal } from './attach-policy.js';
import { type AttachTarget, parseAttachUrl } from './attach-url.js';
import { type AttachLocationConfig, attachLocation } from './database-location.js';

/** The whole attach check (lookup, connect, `SELECT 1`) ends within this. */
const CHECK_TIMEOUT_MS = 5_000;

/** The one answer to every failed attach check: which step failed would map the network for the caller. */
const UNREACHABLE_MESSAGE = 'The database could not be reached with these credentials';

/** Why a database check failed, for the server's log only. */
export type CheckFailure =
  | 'ATTACH_ADDRESS_REFUSED'
  | 'ATTACH_RESPONSE_TOO_LARGE'
  | 'CHECK_TIMEOUT'
  | 'CHECK_UNAUTHORIZED'
  | 'CHECK_NOT_FOUND'
  | 'CHECK_UNREACHABLE';

/**
 * Checks an attach URL: parsed as the libSQL client parses it (see `parseAttachUrl`), then against the attach
 * policy (allowlist, metadata, private networks, the server's own libSQL servers). Local `file:` paths are refused,
 * so an API key cannot point a tenant at a file of the server (its control database).
 */
export async function validateAttachUrl(text: string, policy: AttachPolicy): Promise<AttachTarget> {
  const target = parseAttachUrl(text);
  await policy.checkTarget(target);
  return target;
}

/**
 * Runs `SELECT 1` against an attached database through the bounded attach fetch, within a short total time.
 * Every failure answers the same 409 TENANT_DATABASE_UNREACHABLE; the failure's code goes to the server's log.
 */
export async function checkAttachedDatabase(
  target: AttachTarget,
  authToken: string | undefined,
  context: { config: AttachLocationConfig; policy: AttachPolicy; logger: Logger; tenantId: string },
): Promise<void> {
  const failure = await probeDatabase(
    (signal) =>
      attachLocation(target, authToken, context.policy, {
        maxResponseBytes: context.config.attachMaxResponseBytes,
        signal,
      }),
    CHECK_TIMEOUT_MS,
  );
  if (failure === null) return;
  context.logger.warn('attach check failed', { tenantId: context.tenantId, code: failure });
  throw new ApiError('TENANT_DATABASE_UNREACHABLE', UNREACHABLE_MESSAGE);
}

/**
 * Runs `SELECT 1` against the database `locate` gives; resolves to null when it answered, else why not. Past
 * `timeoutMs` the signal handed to `locate` aborts whatever is still in flight.
 */
export async function probeDatabase(
  locate: (signal: AbortSignal) => DatabaseLocation,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<CheckFailure | null> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const work = (async () => {
    const database = await Database.open(locate(controller.signal));
    try {
      await database.get('SELECT 1 AS one');
    } finally {
      await database.close();
    }
  })();
  // A check that loses the race still settles later: keep that from being an unhandled rejection.
  work.catch(() => undefined);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), timeoutMs);
  });
  try {
    await Promise.race([work, timeout]);
    return null;
  } catch (error) {
    controller.abort();
    return failureOf(error);
  } finally {
    clearTimeout(timer);
  }
}

class CheckTimeout extends Error {}

function failureOf(error: unknown): CheckFailure {
  if (error instanceof CheckTimeout) return 'CHECK_TIMEOUT';
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    if (current instanceof AttachRefusal) return current.code;
    const status = (current as { status?: unknown }).status;
    if (status === 401 || status === 403) return 'CHECK_UNAUTHORIZED';
    if (status === 404) return 'CHECK_NOT_FOUND';
    current = (current as { cause?: unknown }).cause;
  }
  return 'CHECK_UNREACHABLE';
}
