import { type ApiErrorObject, makeApiError } from '@memory-service/contract';

/** How long a client is asked to wait after a failure that passes by itself (a server down, descriptors short). */
export const INFRASTRUCTURE_RETRY_AFTER_SECONDS = 5;

/** Causes followed from the thrown error: the libSQL client wraps twice, fetch once more. */
const MAX_DEPTH = 6;

// SQLite's code (a file worker, or a libSQL server past its `max_db_size`) and the system's (a write, a new file).
const STORAGE_FULL_CODES = ['SQLITE_FULL', 'ENOSPC', 'EDQUOT'];
const DESCRIPTOR_CODES = new Set(['EMFILE', 'ENFILE']);
// What fetch, node:http and undici give for a server that refused, vanished, or could not be named.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** One failure found in an error's chain, as the operator's log records it: no message, which may hold a path. */
export interface InfrastructureFailure {
  error: ApiErrorObject;
  /** The system's or SQLite's code (`ENOSPC`, `SQLITE_FULL`, `ECONNREFUSED`) or the libSQL server's HTTP status. */
  cause: string;
}

interface Link {
  name: unknown;
  code: unknown;
  status: unknown;
}

function chainOf(error: unknown): Link[] {
  const links: Link[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'object' && current !== null; depth += 1) {
    const { name, code, status, cause } = current as Link & { cause?: unknown };
    links.push({ name, code, status });
    current = cause;
  }
  return links;
}

/**
 * An embedding provider's failure (our EmbeddingProviderError, the AI SDK's `AI_*` errors) is the provider's, never
 * a database's: a connection it could not make must not read as a database that is down.
 */
function isProviderError(link: Link): boolean {
  return typeof link.name === 'string' && (link.name === 'EmbeddingProviderError' || link.name.startsWith('AI_'));
}

const storageFull = () =>
  makeApiError(
    'STORAGE_FULL',
    'A database has no space left (a full disk, or its size cap); an operator must free space or raise the cap',
  );

const credentialsRejected = () =>
  makeApiError(
    'TENANT_DATABASE_CREDENTIALS_REJECTED',
    "A database server refused this server's credentials for it; an operator must update them",
  );

const unavailable = () =>
  makeApiError('TENANT_DATABASE_UNAVAILABLE', 'A database server could not be reached; retry later', {
    retryAfterSeconds: INFRASTRUCTURE_RETRY_AFTER_SECONDS,
  });

const attachRefused = () =>
  makeApiError(
    'TENANT_DATABASE_UNREACHABLE',
    "This tenant's attached database is refused by the server's attach policy (MEMORY_ATTACH_*) or sent an answer past its size cap; an operator must change the mapping or the policy",
  );

const exhausted = () =>
  makeApiError('SERVER_RESOURCES_EXHAUSTED', 'The server is out of file descriptors; retry later', {
    retryAfterSeconds: INFRASTRUCTURE_RETRY_AFTER_SECONDS,
  });

function classify(link: Link): InfrastructureFailure | null {
  const { code, status, name } = link;
  if (typeof code === 'string') {
    if (STORAGE_FULL_CODES.some((full) => code.startsWith(full))) return { error: storageFull(), cause: code };
    if (DESCRIPTOR_CODES.has(code)) return { error: exhausted(), cause: code };
    if (NETWORK_CODES.has(code)) return { error: unavailable(), cause: code };
  }
  // The libSQL client's error for a server that answered HTTP with a status instead of a result.
  if (name === 'HttpServerError' && typeof status === 'number') {
    if (status === 401 || status === 403) return { error: credentialsRejected(), cause: `HTTP ${status}` };
    if (status === 502 || status === 503 || status === 504) return { error: unavailable(), cause: `HTTP ${status}` };
  }
  // A libSQL server call past its timeout (store/database-connections.ts bounds each one).
  if (name === 'TimeoutError') return { error: unavailable(), cause: 'TIMEOUT' };
  // An attached database this server's attach policy no longer allows, or one whose answer passed its size cap
  // (tenancy/attach-fetch.ts): no connection was made, or it was cut. Waiting changes neither: an operator must
  // change the mapping or the policy (MEMORY_ATTACH_*).
  if (name === 'AttachRefusal' && typeof code === 'string') return { error: attachRefused(), cause: code };
  return null;
}

/**
 * The contract's code for an infrastructure failure, so that neither a client nor an operator takes it for a bug, or
 * null for anything else (a bug: 500 INTERNAL_ERROR). A full disk or a database at its size cap is STORAGE_FULL
 * (507), a process out of descriptors SERVER_RESOURCES_EXHAUSTED (503), a libSQL server refusing the stored token
 * TENANT_DATABASE_CREDENTIALS_REJECTED (502), and one that does not answer TENANT_DATABASE_UNAVAILABLE (503). The
 * messages name no path, host or SQL.
 */
export function infrastructureFailure(error: unknown): InfrastructureFailure | null {
  for (const link of chainOf(error)) {
    if (isProviderError(link)) return null;
    const failure = classify(link);
    if (failure !== null) return failure;
  }
  return null;
}
