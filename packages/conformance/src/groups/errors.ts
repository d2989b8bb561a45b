import { randomBytes } from 'node:crypto';
import { assert, CheckSkipped, expectError, expectShape, expectSuccess } from '../expect.js';
import { ErrorEnvelopeShape } from '../shapes.js';
import type { CheckGroup } from './group.js';
import { limitCases } from './limit-cases.js';
import { skipWhenSessionsDisabled } from './sessions.js';

const ERRORS = 'Errors (codes table)';
const AUTH = 'Authentication';
const LIMITS = 'Limits';

/** A key of the same shape as the run's key (same prefix, length and alphabet) that no server has issued. */
function unknownKeyLike(apiKey: string): string {
  const body = apiKey.slice(4);
  const hex = /^[0-9a-f]+$/.test(body);
  let random = hex ? randomBytes(body.length).toString('hex') : randomBytes(body.length).toString('base64url');
  random = random.slice(0, body.length);
  return `mem_${random}`;
}

/** Authentication failures, validation codes and every limit of the Limits table (the bound passes, one past fails). */
export const errorsGroup: CheckGroup = {
  id: 'errors',
  title: 'Error codes and limits',
  summary:
    'MISSING_API_KEY, INVALID_API_KEY_FORMAT, INVALID_API_KEY, malformed JSON and wrong types (INVALID_REQUEST), TENANT_ID_INVALID, USER_ID_INVALID, 429 RATE_LIMITED when met, and every row of the Limits table (the bound accepted, one past it refused with 400).',
  async run(t, env) {
    const scope = env.scope();
    await t.check(
      'missing-api-key',
      'no Authorization answers 401 MISSING_API_KEY on a runtime and a graph route',
      `${AUTH}; ${ERRORS}`,
      async () => {
        expectError(await env.post('/memories/list', { scope }, 'none'), { status: 401, code: 'MISSING_API_KEY' });
        expectError(await env.get('/graph/status', env.query(), 'none'), { status: 401, code: 'MISSING_API_KEY' });
      },
    );

    await t.check(
      'invalid-api-key-format',
      'a malformed bearer token answers 401 INVALID_API_KEY_FORMAT',
      `${AUTH}; ${ERRORS}`,
      async () => {
        for (const authorization of ['Bearer not-a-memory-key', 'Bearer mem_']) {
          expectError(await env.post('/memories/list', { scope }, { authorization }), {
            status: 401,
            code: 'INVALID_API_KEY_FORMAT',
          });
        }
      },
    );

    await t.check(
      'invalid-api-key',
      'a well-formed key the server never issued answers 401 INVALID_API_KEY',
      `${AUTH}; ${ERRORS}`,
      async () => {
        const key = unknownKeyLike(env.http.authorization('key')!.slice('Bearer '.length));
        expectError(await env.post('/memories/list', { scope }, { authorization: `Bearer ${key}` }), {
          status: 401,
          code: 'INVALID_API_KEY',
        });
      },
    );

    await t.check('api-key-expired', 'an expired key answers 401 API_KEY_EXPIRED', `${AUTH}; ${ERRORS}`, async () => {
      throw new CheckSkipped(
        'not checkable from outside in a short run: a key can only be created to expire at least a minute ahead',
      );
    });

    await t.check(
      'malformed-json',
      'a malformed JSON body answers 400 INVALID_REQUEST',
      `${ERRORS} (INVALID_REQUEST)`,
      async () => {
        expectError(await env.request({ method: 'POST', path: '/memories/list', rawBody: '{"scope": ' }), {
          status: 400,
          code: 'INVALID_REQUEST',
        });
      },
    );

    await t.check(
      'wrong-type',
      'a field of the wrong type answers 400 INVALID_REQUEST (details.field, when sent, names it)',
      `${ERRORS} (INVALID_REQUEST)`,
      async () => {
        const error = expectError(await env.post('/memories/add', { content: 42, scope }), {
          status: 400,
          code: 'INVALID_REQUEST',
        });
        const field = error.details?.field;
        assert(
          field === undefined || field === 'content',
          `details.field is ${JSON.stringify(field)}, the invalid field is content`,
        );
      },
    );

    await t.check(
      'tenant-id-invalid',
      'an invalid scope.tenantId answers 400 TENANT_ID_INVALID',
      `Scope model; ${ERRORS}`,
      async () => {
        expectError(await env.post('/memories/list', { scope: { tenantId: 'not a tenant/../id' } }), {
          status: 400,
          code: 'TENANT_ID_INVALID',
        });
      },
    );

    await t.check(
      'user-id-invalid',
      'an invalid scope.userId answers 400 USER_ID_INVALID',
      `Scope model; ${ERRORS}`,
      async () => {
        expectError(await env.post('/memories/list', { scope: { ...scope, userId: 'not a user/../id' } }), {
          status: 400,
          code: 'USER_ID_INVALID',
        });
      },
    );

    await t.check(
      'edit-unknown',
      'memories/edit of an id that does not exist is refused (4xx error envelope)',
      'Endpoints › POST /memories/edit',
      async () => {
        const response = await env.post('/memories/edit', {
          id: `conformance-missing-${env.namespace.runId}`,
          content: 'x',
          scope,
        });
        assert(response.status >= 400 && response.status < 500, `answered HTTP ${response.status}`);
        expectShape(ErrorEnvelopeShape, response.json, 'the error envelope');
      },
    );

    // A live session for the checkpoint limits.
    const sessionId = await t.check(
      'limits-setup',
      'an active session for the checkpoint limits (sessions/start)',
      'Endpoints › POST /sessions/start',
      async () => {
        const response = await env.post('/sessions/start', { title: 'Conformance limits', scope });
        skipWhenSessionsDisabled(response);
        return expectSuccess(response, 201).sessionId as string;
      },
    );
    for (const limit of limitCases(() => sessionId)) {
      await t.check(`limit-${limit.name}`, limit.title, limit.section, async () => {
        const refused = await limit.refused(env);
        if (refused.status === 403) skipWhenSessionsDisabled(refused);
        expectError(refused, { status: 400 });
        if (limit.accepted === undefined) return;
        expectSuccess(await limit.accepted(env), limit.acceptedStatus ?? 200);
      });
    }

    await t.check(
      'rate-limited',
      'a 429 answers RATE_LIMITED with details.retryAfterSeconds (checked when the run meets one)',
      `${ERRORS} (RATE_LIMITED); ${LIMITS}`,
      async () => {
        const event = env.http.rateLimitEvents[0];
        if (event === undefined)
          throw new CheckSkipped('the run met no 429 (it does not try to exhaust the rate limit of a live server)');
        const error = expectShape(ErrorEnvelopeShape, event.json, 'the 429 envelope').error;
        assert(error.code === 'RATE_LIMITED', `a 429 answered code ${error.code}`);
        assert(typeof error.details?.retryAfterSeconds === 'number', 'details.retryAfterSeconds is missing');
      },
    );
  },
};
