import { describe, expect, it } from 'vitest';
import { infrastructureFailure } from './infrastructure-error.js';

/** An error as Node, undici or the libSQL client builds it: a name, maybe a code or status, maybe a cause. */
function failure(name: string, fields: { code?: string; status?: number; cause?: unknown } = {}): Error {
  const error = new Error(`${name} message with /var/data/tenant.db and INSERT INTO memories`, { cause: fields.cause });
  error.name = name;
  return Object.assign(
    error,
    fields.code === undefined ? {} : { code: fields.code },
    fields.status === undefined ? {} : { status: fields.status },
  );
}

/** fetch's failure: a TypeError whose cause carries the system's code. */
const fetchFailed = (code: string) => failure('TypeError', { cause: failure('Error', { code }) });
/** The libSQL client's failure for a server that answered an HTTP status. */
const httpStatus = (status: number) =>
  failure('LibsqlError', { code: 'SERVER_ERROR', cause: failure('HttpServerError', { status }) });

describe('infrastructureFailure', () => {
  it.each([
    [
      'SQLITE_FULL from a file worker',
      failure('DatabaseWorkerError', { code: 'SQLITE_FULL' }),
      'STORAGE_FULL',
      'SQLITE_FULL',
    ],
    [
      'SQLITE_FULL from a libSQL server',
      failure('LibsqlError', { code: 'SQLITE_FULL', cause: failure('ResponseError', { code: 'SQLITE_FULL' }) }),
      'STORAGE_FULL',
      'SQLITE_FULL',
    ],
    ['ENOSPC from the file system', failure('Error', { code: 'ENOSPC' }), 'STORAGE_FULL', 'ENOSPC'],
    ['EDQUOT from the file system', failure('Error', { code: 'EDQUOT' }), 'STORAGE_FULL', 'EDQUOT'],
    ['EMFILE', failure('Error', { code: 'EMFILE' }), 'SERVER_RESOURCES_EXHAUSTED', 'EMFILE'],
    ['ENFILE', failure('Error', { code: 'ENFILE' }), 'SERVER_RESOURCES_EXHAUSTED', 'ENFILE'],
    ['a refused connection', fetchFailed('ECONNREFUSED'), 'TENANT_DATABASE_UNAVAILABLE', 'ECONNREFUSED'],
    ['a name that does not resolve', fetchFailed('ENOTFOUND'), 'TENANT_DATABASE_UNAVAILABLE', 'ENOTFOUND'],
    [
      'a connect timeout',
      fetchFailed('UND_ERR_CONNECT_TIMEOUT'),
      'TENANT_DATABASE_UNAVAILABLE',
      'UND_ERR_CONNECT_TIMEOUT',
    ],
    [
      'a call past its timeout',
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      'TENANT_DATABASE_UNAVAILABLE',
      'TIMEOUT',
    ],
    ['a 503 in front of the server', httpStatus(503), 'TENANT_DATABASE_UNAVAILABLE', 'HTTP 503'],
    ['a 401 from the server', httpStatus(401), 'TENANT_DATABASE_CREDENTIALS_REJECTED', 'HTTP 401'],
    ['a 403 from the server', httpStatus(403), 'TENANT_DATABASE_CREDENTIALS_REJECTED', 'HTTP 403'],
  ])('maps %s', (_, error, code, cause) => {
    const found = infrastructureFailure(error);
    expect(found).toMatchObject({ error: { code }, cause });
    // The message is the table's, never the error's (which may name a path or a statement).
    expect(found?.error.message).not.toMatch(/\/var|INSERT|message/);
  });

  it.each([
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a constraint violation', failure('DatabaseWorkerError', { code: 'SQLITE_CONSTRAINT_UNIQUE' })],
    ['a damaged file (its own code)', failure('DatabaseWorkerError', { code: 'SQLITE_CORRUPT' })],
    ['a 500 from the server', httpStatus(500)],
    [
      'an embedding endpoint that is down',
      failure('EmbeddingProviderError', { code: 'EMBEDDING_PROVIDER_UNREACHABLE' }),
    ],
    ['an AI SDK call that could not connect', failure('AI_APICallError', { cause: fetchFailed('ECONNREFUSED') })],
    ['a status on an error that is not the libSQL client’s', failure('Error', { status: 401 })],
  ])('leaves %s to INTERNAL_ERROR', (_, error) => {
    expect(infrastructureFailure(error)).toBeNull();
  });
});
