import { ApiError } from '../api-error.js';
import { Database, type DatabaseLocation } from '../store/database.js';

const CHECK_TIMEOUT_MS = 5_000;
const REMOTE_PROTOCOLS = new Set(['libsql:', 'http:', 'https:', 'ws:', 'wss:']);

/** Why a database did not answer, as far as the caller may know it (never the server's own message). */
export type UnreachableReason = 'unauthorized' | 'not_found' | 'timeout' | 'unreachable';

/**
 * Checks an attach URL: a libSQL server (`libsql:`, `http(s):`, `ws(s):`) with no credentials inside it. Local
 * `file:` paths are refused, so an API key cannot point a tenant at a file of the server (its control database).
 */
export function validateAttachUrl(text: string, allowedHosts: readonly string[] = []): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'attachDbUrl: not a URL', { field: 'attachDbUrl' });
  }
  if (!REMOTE_PROTOCOLS.has(url.protocol)) {
    throw new ApiError('INVALID_REQUEST', 'attachDbUrl: use a libsql:, http(s): or ws(s): URL of a libSQL server', {
      field: 'attachDbUrl',
    });
  }
  if (url.username !== '' || url.password !== '' || url.searchParams.has('authToken')) {
    throw new ApiError('INVALID_REQUEST', 'attachDbUrl: pass credentials in attachDbToken, not in the URL', {
      field: 'attachDbUrl',
    });
  }
  if (allowedHosts.length > 0 && !allowedHosts.includes(url.hostname.toLowerCase())) {
    // MEMORY_ATTACH_ALLOWED_HOSTS: a key holder must not make the server connect to arbitrary hosts (SSRF).
    throw new ApiError('INVALID_REQUEST', "attachDbUrl: this host is not in the server's attach allowlist", {
      field: 'attachDbUrl',
    });
  }
  return url;
}

/** Runs `SELECT 1` against a database; throws 409 TENANT_DATABASE_UNREACHABLE when it does not answer. */
export async function checkDatabase(location: DatabaseLocation, timeoutMs = CHECK_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const work = (async () => {
    const database = await Database.open(location);
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
  } catch (error) {
    const reason = reasonOf(error);
    throw new ApiError('TENANT_DATABASE_UNREACHABLE', unreachableMessage(reason), { reason });
  } finally {
    clearTimeout(timer);
  }
}

class CheckTimeout extends Error {}

function reasonOf(error: unknown): UnreachableReason {
  if (error instanceof CheckTimeout) return 'timeout';
  const status = httpStatusOf(error);
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  return 'unreachable';
}

/** The HTTP status a libSQL client error carries in its cause chain, if any. */
function httpStatusOf(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const status = (current as { status?: unknown }).status;
    if (typeof status === 'number') return status;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function unreachableMessage(reason: UnreachableReason): string {
  switch (reason) {
    case 'unauthorized':
      return 'The database refused the credentials (SELECT 1 failed): check attachDbToken';
    case 'not_found':
      return 'The server answered but has no such database (SELECT 1 failed): check attachDbUrl';
    case 'timeout':
      return 'The database did not answer SELECT 1 in time';
    default:
      return 'The database did not answer SELECT 1: check attachDbUrl and that the server is running';
  }
}
