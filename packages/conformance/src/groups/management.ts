import { assert, expectError, expectShape, expectSuccess, need } from '../expect.js';
import {
  EmbeddingModelsShape,
  EmbeddingsObservabilityShape,
  EvalReplayShape,
  KeyInventoryShape,
  MemoryObservabilityShape,
  UsageShape,
} from '../shapes.js';
import type { CheckGroup } from './group.js';

const KEYS = 'Endpoints › GET, POST, DELETE /management/keys';
const TENANTS = 'Endpoints › GET, POST, DELETE /management/tenant-overrides';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every UUID-shaped string value inside a JSON value. */
function uuidsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string' && UUID.test(value)) found.add(value);
  else if (Array.isArray(value)) for (const each of value) uuidsIn(each, found);
  else if (value !== null && typeof value === 'object') for (const each of Object.values(value)) uuidsIn(each, found);
  return found;
}

/** Tenant mappings, keys (with the admin token), embeddings models, usage, backfill, observability and eval replay. */
export const managementGroup: CheckGroup = {
  id: 'management',
  title: 'Management, tenants and keys',
  summary:
    'tenant-overrides list/upsert/disable; keys inventory, create (expiresAt), revoke by keyId, the legacy alias /api/mcp/key (admin token); embeddings models, usage, backfill (run, pause, resume), embeddings and memory observability, eval replay.',
  async run(t, env) {
    const { tenantId } = env.namespace;

    await t.check(
      'tenants-list',
      "GET tenant-overrides lists the tenant mappings, with the run's tenant",
      TENANTS,
      async () => {
        const data = expectSuccess(await env.get('/management/tenant-overrides'));
        assert(JSON.stringify(data).includes(`"${tenantId}"`), `the run's tenant ${tenantId} is not in the list`);
      },
    );

    await t.check(
      'tenants-upsert-disable',
      'POST tenant-overrides provisions a mapping and DELETE ?tenantId disables it',
      TENANTS,
      async () => {
        const extra = `${tenantId}-m`;
        env.written.tenantIds.add(extra);
        expectSuccess(
          await env.post('/management/tenant-overrides', {
            tenantId: extra,
            mode: 'provision',
            metadata: { createdBy: 'conformance' },
          }),
          [200, 201],
        );
        expectSuccess(
          await env.request({ method: 'DELETE', path: '/management/tenant-overrides', query: { tenantId: extra } }),
        );
        env.written.tenantIds.delete(extra);
      },
    );

    await t.check(
      'tenants-invalid-mode',
      'POST tenant-overrides with a mode other than provision or attach is refused (400)',
      TENANTS,
      async () => {
        expectError(await env.post('/management/tenant-overrides', { tenantId: `${tenantId}-x`, mode: 'replicate' }), {
          status: 400,
        });
      },
    );

    await t.check(
      'embeddings-models',
      'GET embeddings/models answers models[] and config (selectedModelId, source, workspaceDefaultModelId, projectOverrideModelId, allowlistModelIds)',
      'Endpoints › GET /embeddings/models',
      async () => {
        expectShape(
          EmbeddingModelsShape,
          expectSuccess(await env.get('/embeddings/models', env.query())),
          'models data',
        );
      },
    );

    await t.check(
      'embeddings-usage',
      'GET embeddings/usage answers usageMonth, summary (requestCount...), breakdown[]',
      'Endpoints › GET /management/embeddings/usage',
      async () => {
        const month = `${new Date().toISOString().slice(0, 7)}-01`;
        const data = expectShape(
          UsageShape,
          expectSuccess(await env.get('/management/embeddings/usage', env.query({ usageMonth: month }))),
          'usage data',
        );
        assert(data.usageMonth.startsWith(month.slice(0, 7)), `usageMonth is ${data.usageMonth}, asked ${month}`);
      },
    );

    await t.check(
      'embeddings-usage-default-month',
      'GET embeddings/usage without usageMonth reports the current month (its first day)',
      'Endpoints › GET /management/embeddings/usage',
      async () => {
        const data = expectShape(
          UsageShape,
          expectSuccess(await env.get('/management/embeddings/usage', env.query())),
          'usage data',
        );
        const now = new Date();
        // Around midnight UTC of a month's first day a server in another zone may still be in the previous month.
        const months = [now, new Date(now.getTime() - 86_400_000), new Date(now.getTime() + 86_400_000)].map((date) =>
          date.toISOString().slice(0, 7),
        );
        assert(
          months.some((month) => data.usageMonth.startsWith(month)),
          `usageMonth is ${data.usageMonth}`,
        );
      },
    );

    await t.check(
      'unknown-tenant',
      'a request naming a tenantId with no mapping works (auto-provision) or answers 404 TENANT_DATABASE_NOT_CONFIGURED',
      'Scope model; Errors (TENANT_DATABASE_NOT_CONFIGURED)',
      async () => {
        const unknown = `${tenantId}-auto`;
        env.written.tenantIds.add(unknown);
        const response = await env.post('/memories/list', { scope: { tenantId: unknown } });
        if (response.status === 200) {
          // Auto-provisioned: disable the mapping at cleanup, if the server made one.
          const mappings = expectSuccess(await env.get('/management/tenant-overrides'));
          if (!JSON.stringify(mappings).includes(`"${unknown}"`)) env.written.tenantIds.delete(unknown);
          return;
        }
        env.written.tenantIds.delete(unknown);
        expectError(response, { status: 404, code: 'TENANT_DATABASE_NOT_CONFIGURED' });
      },
    );

    await t.check(
      'backfill',
      'GET embeddings/backfill reads the status; POST action pause, resume and run answer 200',
      'Endpoints › GET and POST /management/embeddings/backfill',
      async () => {
        expectSuccess(await env.get('/management/embeddings/backfill', env.query()));
        for (const action of ['pause', 'resume', 'run']) {
          expectSuccess(await env.post('/management/embeddings/backfill', { action, scope: env.scope() }));
        }
      },
    );

    await t.check(
      'backfill-invalid-action',
      'POST embeddings/backfill with an unknown action is refused (400)',
      'Endpoints › GET and POST /management/embeddings/backfill',
      async () => {
        expectError(await env.post('/management/embeddings/backfill', { action: 'explode', scope: env.scope() }), {
          status: 400,
        });
      },
    );

    await t.check(
      'embeddings-observability',
      'GET embeddings/observability answers queue, worker (topErrorCodes at most 5), backfill, retrieval, cost, slos, alarms[], health',
      'Endpoints › GET /management/embeddings/observability',
      async () => {
        const response = await env.get('/management/embeddings/observability', env.query({ windowHours: 24 }));
        expectShape(EmbeddingsObservabilityShape, expectSuccess(response), 'observability data');
      },
    );

    await t.check(
      'memory-observability',
      'GET memory/observability answers lifecycle, compaction, consolidation, contradictions, alarms[], health',
      'Endpoints › GET /management/memory/observability',
      async () => {
        const response = await env.get('/management/memory/observability', env.query({ windowHours: 24 }));
        expectShape(MemoryObservabilityShape, expectSuccess(response), 'observability data');
      },
    );

    await t.check(
      'eval-replay',
      'POST memory/eval/replay scores the scenarios (scope, summary, scenarios[] one per scenario), the same way twice',
      'Endpoints › POST /management/memory/eval/replay',
      async () => {
        const body = {
          tenantId,
          passCriteria: { extractionF1: 0.5, compactionRetention: 0.5, triggerAccuracy: 0.5, casePassRatio: 0.5 },
          scenarios: [
            {
              id: 'exact',
              extraction: { expected: ['deploy on tuesday'], observed: ['deploy on tuesday'] },
              trigger: { expected: 'count', observed: 'count' },
            },
            {
              id: 'missed',
              extraction: { expected: ['uses postgres'], observed: [] },
              trigger: { expected: 'time', observed: 'semantic' },
            },
          ],
        };
        const data = expectShape(
          EvalReplayShape,
          expectSuccess(await env.post('/management/memory/eval/replay', body)),
          'eval replay data',
        );
        assert(data.scenarios.length === 2, `2 scenarios sent, ${data.scenarios.length} scored`);
        const again = expectShape(
          EvalReplayShape,
          expectSuccess(await env.post('/management/memory/eval/replay', body)),
          'eval replay data',
        );
        const scores = (value: typeof data) => JSON.stringify([value.summary, value.scenarios]);
        assert(
          scores(again) === scores(data),
          'the same replay scored differently the second time (the replay is deterministic)',
        );
      },
    );

    await t.check(
      'keys-credential-required',
      'GET management/keys without a credential is refused (401 or 403)',
      `${KEYS}; Authentication`,
      async () => {
        expectError(await env.get('/management/keys', {}, 'none'), { status: [401, 403] });
      },
    );

    await t.check(
      'keys-inventory',
      'GET management/keys with the management credential answers hasKey, keyCount, activeKeyCount, keys[]',
      KEYS,
      async () => {
        expectShape(KeyInventoryShape, expectSuccess(await env.get('/management/keys', {}, 'admin')), 'key inventory');
      },
      { admin: true },
    );

    await t.check(
      'keys-legacy-alias',
      'the legacy alias /api/mcp/key answers the same key inventory',
      `Authentication; Versioning (/api/mcp/key)`,
      async () => {
        expectShape(KeyInventoryShape, expectSuccess(await env.get('/api/mcp/key', {}, 'admin')), 'key inventory');
      },
      { admin: true },
    );

    const created = await t.check(
      'keys-create',
      'POST management/keys with expiresAt creates a key, returned once as apiKey (mem_...), that authenticates',
      KEYS,
      async () => {
        const before = uuidsIn(expectSuccess(await env.get('/management/keys', {}, 'admin')));
        // Short-lived: should the revocation below fail, the key expires by itself within the hour.
        const expiresAt = new Date(Date.now() + 3600_000).toISOString();
        const data = expectSuccess(await env.post('/management/keys', { expiresAt }, 'admin'), [200, 201]);
        const apiKey = data.apiKey;
        assert(typeof apiKey === 'string' && apiKey.startsWith('mem_'), `apiKey is ${JSON.stringify(apiKey)}`);
        const fresh = [...uuidsIn(data)].filter((id) => !before.has(id));
        const after = [...uuidsIn(expectSuccess(await env.get('/management/keys', {}, 'admin')))].filter(
          (id) => !before.has(id),
        );
        const keyId = fresh.length === 1 ? fresh[0] : after.length === 1 ? after[0] : undefined;
        if (keyId !== undefined) env.written.keyIds.add(keyId);
        const used = await env.get('/embeddings/models', {}, { authorization: `Bearer ${apiKey}` });
        expectSuccess(used);
        assert(
          keyId !== undefined,
          `cannot tell the new key's id (a UUID) from the answers; it expires at ${expiresAt}`,
        );
        return { apiKey, keyId };
      },
      { admin: true },
    );

    await t.check(
      'keys-revoke',
      'DELETE management/keys?keyId revokes only that key: it no longer authenticates (401)',
      `${KEYS}; Authentication`,
      async () => {
        const { apiKey, keyId } = need(created, 'a created key');
        expectSuccess(
          await env.request({ method: 'DELETE', path: '/management/keys', query: { keyId }, credential: 'admin' }),
        );
        env.written.keyIds.delete(keyId);
        const refused = await env.get('/embeddings/models', {}, { authorization: `Bearer ${apiKey}` });
        expectError(refused, { status: 401, code: ['INVALID_API_KEY', 'API_KEY_EXPIRED', 'INVALID_API_KEY_FORMAT'] });
        expectSuccess(await env.get('/embeddings/models', env.query()));
      },
      { admin: true },
    );

    await t.check(
      'keys-expires-at-required',
      'POST management/keys without a valid expiresAt is refused (400)',
      KEYS,
      async () => {
        const response = await env.post('/management/keys', { expiresAt: 'tomorrow' }, 'admin');
        if (response.status >= 200 && response.status < 300) {
          const keyId = [...uuidsIn((response.json as { data?: unknown }).data)][0];
          if (keyId)
            await env.request({ method: 'DELETE', path: '/management/keys', query: { keyId }, credential: 'admin' });
          assert(
            false,
            `expiresAt "tomorrow" (not ISO 8601) was accepted with HTTP ${response.status} (the key was revoked again)`,
          );
        }
        expectError(response, { status: 400 });
      },
      { admin: true },
    );
  },
};
