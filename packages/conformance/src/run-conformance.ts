import { createNamespace, RunEnvironment } from './environment.js';
import { assert, expectSuccess } from './expect.js';
import { checkGroups } from './groups/index.js';
import { HttpClient } from './http.js';
import { type CheckResult, type ConformanceReport, summarize } from './report.js';
import { GroupRunner } from './runner.js';
import { TOOL_NAME, TOOL_VERSION } from './version.js';

/** Options of a conformance run. */
export interface ConformanceOptions {
  /** The server's base URL (`http://host:port`; a trailing `/api/sdk/v1` is accepted). */
  baseUrl: string;
  /** An API key of the server (`mem_...`). */
  apiKey: string;
  /** The management credential of `/management/keys`; the checks that need it are skipped without it. */
  adminToken?: string;
  /** Group ids to run (all when absent); `setup` and `cleanup` always run. */
  only?: readonly string[];
  /** The fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Called after each check, for progress output. */
  onResult?: (result: CheckResult) => void;
  /** Prefix of the run's tenant ids (default `conformance`). */
  namespacePrefix?: string;
}

/** The ids `only` may name. */
export const GROUP_IDS: readonly string[] = checkGroups.map((group) => group.id);

/** Creates the run's tenants and checks that the server answers and the key works; false stops the run. */
async function setUp(runner: GroupRunner, env: RunEnvironment): Promise<boolean> {
  const reachable = await runner.check(
    'reachable',
    'the server answers GET /health',
    'Endpoints › GET /health',
    async () => {
      expectSuccess(await env.get('/health', {}, 'none'));
      return true;
    },
  );
  if (!reachable) return false;
  for (const tenantId of [env.namespace.tenantId, env.namespace.otherTenantId]) {
    await runner.check(
      tenantId === env.namespace.tenantId ? 'tenant' : 'second-tenant',
      `the run's tenant ${tenantId} is provisioned (POST management/tenant-overrides, mode provision)`,
      'Endpoints › GET, POST, DELETE /management/tenant-overrides',
      async () => {
        env.written.tenantIds.add(tenantId);
        expectSuccess(
          await env.post('/management/tenant-overrides', {
            tenantId,
            mode: 'provision',
            metadata: { createdBy: TOOL_NAME },
          }),
          [200, 201],
        );
      },
    );
  }
  const authenticated = await runner.check(
    'api-key',
    "the API key is accepted in the run's tenant (POST memories/list)",
    'Authentication',
    async () => {
      expectSuccess(await env.post('/memories/list', { limit: 1, scope: env.scope() }));
      return true;
    },
  );
  return authenticated === true;
}

/** Removes what the run wrote: ends its sessions, deletes its skill files, forgets and purges its memories, disables its tenants. */
async function cleanUp(runner: GroupRunner, env: RunEnvironment): Promise<void> {
  const { written } = env;
  await runner.check(
    'sessions',
    "the run's sessions are ended (sessions have no delete route; they stay in the disabled tenants)",
    'Endpoints › POST /sessions/end',
    async () => {
      for (const { scope, sessionId } of written.sessions.values()) {
        const response = await env.post('/sessions/end', { sessionId, status: 'closed', scope });
        assert(
          response.status === 200 || response.status === 409,
          `ending session ${sessionId} answered HTTP ${response.status}`,
        );
      }
    },
  );
  await runner.check(
    'skill-files',
    "the run's skill files are deleted",
    'Endpoints › POST /skills/files/delete',
    async () => {
      for (const { scope, path } of written.skillFiles.values()) {
        const response = await env.post('/skills/files/delete', { path, scope });
        assert(response.status === 200 || response.status === 404, `deleting ${path} answered HTTP ${response.status}`);
      }
    },
  );
  await runner.check(
    'memories',
    "the run's memories are forgotten (bulk-forget all) and purged (vacuum), and no longer listed",
    'Endpoints › POST /memories/bulk-forget, /memories/vacuum',
    async () => {
      for (const scope of written.memoryScopes.values()) {
        expectSuccess(await env.post('/memories/bulk-forget', { all: true, dryRun: false, scope }));
        expectSuccess(await env.post('/memories/vacuum', { scope }));
      }
      for (const scope of written.memoryScopes.values()) {
        const data = expectSuccess(await env.post('/memories/list', { limit: 100, scope })) as { memories: unknown[] };
        assert(
          data.memories.length === 0,
          `${data.memories.length} memories are still listed in scope ${JSON.stringify(scope)}`,
        );
      }
    },
  );
  if (written.keyIds.size > 0) {
    await runner.check(
      'keys',
      'the keys the run created are revoked',
      'Endpoints › GET, POST, DELETE /management/keys',
      async () => {
        for (const keyId of written.keyIds) {
          expectSuccess(
            await env.request({ method: 'DELETE', path: '/management/keys', query: { keyId }, credential: 'admin' }),
          );
        }
      },
    );
  }
  await runner.check(
    'tenants',
    "the run's tenant mappings are disabled (DELETE management/tenant-overrides?tenantId)",
    'Endpoints › GET, POST, DELETE /management/tenant-overrides',
    async () => {
      for (const tenantId of written.tenantIds) {
        expectSuccess(
          await env.request({ method: 'DELETE', path: '/management/tenant-overrides', query: { tenantId } }),
        );
      }
    },
  );
}

/**
 * Runs the conformance checks against a server and returns the report. It writes only in tenants of its own
 * (`conformance-<time>-<random>`), which it provisions first and cleans up and disables at the end.
 * @example
 * const report = await runConformance({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.MEMORY_API_KEY! });
 * console.log(formatReport(report)); process.exitCode = report.summary.failed > 0 ? 1 : 0;
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const unknown = (options.only ?? []).filter((id) => !GROUP_IDS.includes(id));
  if (unknown.length > 0) throw new Error(`unknown group ${unknown.join(', ')}; groups: ${GROUP_IDS.join(', ')}`);
  const selected = checkGroups.filter(
    (group) => options.only === undefined || options.only.length === 0 || options.only.includes(group.id),
  );
  const http = new HttpClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const namespace = createNamespace(options.namespacePrefix);
  const env = new RunEnvironment(http, namespace, options.adminToken !== undefined, options.fetch);
  const started = new Date();
  const results: CheckResult[] = [];
  const runnerFor = (group: string) => new GroupRunner(group, env.hasAdminToken, options.onResult);

  const setup = runnerFor('setup');
  const ready = await setUp(setup, env);
  results.push(...setup.results);
  // Unreachable: nothing was written. Otherwise cleanup runs, whatever happened (a tenant may have been created).
  if (setup.results.some((result) => result.id === 'setup.reachable' && result.status === 'pass')) {
    try {
      for (const group of ready ? selected : []) {
        const runner = runnerFor(group.id);
        try {
          await group.run(runner, env);
        } finally {
          results.push(...runner.results);
        }
      }
    } finally {
      const cleanup = runnerFor('cleanup');
      await cleanUp(cleanup, env);
      results.push(...cleanup.results);
    }
  }
  const finished = new Date();
  return {
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    baseUrl: http.baseUrl,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    namespace: {
      tenantIds: [namespace.tenantId, namespace.otherTenantId],
      userIds: [namespace.userId, namespace.otherUserId],
      projectId: namespace.projectId,
    },
    groups: ['setup', ...selected.map((group) => group.id), 'cleanup'],
    requestCount: http.requestCount,
    summary: summarize(results),
    results,
  };
}
