import { assert, expectError, expectShape, expectSuccess } from '../expect.js';
import { HealthShape, MetaShape } from '../shapes.js';
import type { CheckGroup } from './group.js';

const ENVELOPE = 'Resources and their fields › Response envelope (every endpoint)';
const CONTRACT_VERSION = '2026-02-11';

/** The envelope every response uses, `meta`, the health route and the contract version. */
export const envelopeGroup: CheckGroup = {
  id: 'envelope',
  title: 'Envelope, meta and health',
  summary:
    'GET /health without a key; ok/data/error/meta on success and failure; meta.version, endpoint, requestId, timestamp; JSON content type.',
  async run(t, env) {
    await t.check(
      'health',
      'GET /health answers 200 without a key: status, service, schemaVersion',
      'Endpoints › GET /health',
      async () => {
        const response = await env.get('/health', {}, 'none');
        const data = expectSuccess(response);
        expectShape(HealthShape, data, 'health data');
      },
    );

    await t.check(
      'contract-version',
      `meta.version and health schemaVersion are the contract version ${CONTRACT_VERSION}`,
      'Versioning; Endpoints › GET /health',
      async () => {
        const response = await env.get('/health', {}, 'none');
        const body = response.json as { data: { schemaVersion: string }; meta: { version: string } };
        expectSuccess(response);
        assert(body.meta.version === CONTRACT_VERSION, `meta.version is ${body.meta.version}`);
        assert(
          body.data.schemaVersion === body.meta.version,
          `schemaVersion ${body.data.schemaVersion} differs from meta.version`,
        );
      },
    );

    const listed = await t.check(
      'success-envelope',
      'A success is { ok: true, data: object, error: null, meta } (POST memories/list)',
      ENVELOPE,
      async () => {
        const response = await env.post('/memories/list', { scope: env.scope() });
        expectSuccess(response);
        return response;
      },
    );

    await t.check(
      'meta-fields',
      'meta has version (a date), endpoint, requestId (UUID) and timestamp (ISO 8601 UTC)',
      ENVELOPE,
      async () => {
        const response = await env.post('/memories/list', { scope: env.scope(), limit: 1 });
        const meta = expectShape(MetaShape, (response.json as { meta?: unknown } | undefined)?.meta, 'meta');
        const skew = Math.abs(Date.parse(meta.timestamp) - Date.now());
        assert(skew < 24 * 3600_000, `meta.timestamp ${meta.timestamp} is more than a day from this machine's clock`);
      },
    );

    await t.check('meta-endpoint', 'meta.endpoint is the route path called', ENVELOPE, async () => {
      const endpoint = (listed?.json as { meta?: { endpoint?: string } } | undefined)?.meta?.endpoint;
      assert(
        typeof endpoint === 'string' && endpoint.endsWith('/memories/list'),
        `meta.endpoint is ${endpoint}, not the route /memories/list`,
      );
      const health = await env.get('/health', {}, 'none');
      const healthEndpoint = (health.json as { meta?: { endpoint?: string } } | undefined)?.meta?.endpoint;
      assert(healthEndpoint?.endsWith('/health'), `meta.endpoint of GET /health is ${healthEndpoint}`);
    });

    await t.check('request-id-unique', 'meta.requestId is a new UUID for every request', ENVELOPE, async () => {
      const ids = new Set<string>();
      for (let index = 0; index < 3; index += 1) {
        const response = await env.get('/health', {}, 'none');
        ids.add(String((response.json as { meta?: { requestId?: string } } | undefined)?.meta?.requestId));
      }
      assert(ids.size === 3, `three requests got ${ids.size} distinct request ids`);
    });

    await t.check(
      'content-type',
      'Responses are JSON (Content-Type application/json), successes and failures',
      'Endpoints (all responses use the envelope)',
      async () => {
        for (const response of [await env.get('/health', {}, 'none'), await env.post('/memories/list', {}, 'none')]) {
          const type = response.headers.get('content-type') ?? '';
          assert(
            type.includes('application/json'),
            `HTTP ${response.status} answered Content-Type ${type || '(none)'}`,
          );
        }
      },
    );

    await t.check(
      'error-envelope',
      'A failure is { ok: false, data: null, error: { type, code, message, status, retryable, details? }, meta }',
      `${ENVELOPE}; Errors`,
      async () => {
        const response = await env.post('/memories/list', { scope: env.scope() }, 'none');
        expectError(response, { status: 401 });
        const meta = (response.json as { meta?: unknown }).meta;
        expectShape(MetaShape, meta, 'meta of an error');
      },
    );

    await t.check(
      'error-status-and-type',
      'error.status equals the HTTP status and error.type follows the status table (401, 400, 404)',
      'Errors (type and statuses table)',
      async () => {
        expectError(await env.post('/memories/list', { scope: env.scope() }, 'none'), { status: 401 });
        expectError(await env.post('/memories/search', { query: '', scope: env.scope() }), { status: 400 });
        expectError(
          await env.post('/sessions/checkpoint', { sessionId: crypto.randomUUID(), content: 'x', scope: env.scope() }),
          {
            status: [404, 403],
          },
        );
      },
    );
  },
};
