import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceReport, formatReport, formatResult, runConformance } from '../src/index.js';
import { KNOWN_DEVIATIONS } from './known-deviations.js';
import { ADMIN_TOKEN, API_KEY, startReferenceServer, type TestServer } from './real-server.js';

// The kit, run in-process against the reference server (packages/server/dist): every check passes, except the
// server's known deviations from the contract (known-deviations.ts), which are printed for the reviewer.

describe('the reference server against the conformance kit', () => {
  let reference: TestServer;
  let report: ConformanceReport;

  beforeAll(async () => {
    reference = await startReferenceServer();
    report = await runConformance({ baseUrl: reference.server.url, apiKey: API_KEY, adminToken: ADMIN_TOKEN });
  });

  afterAll(async () => {
    await reference?.stop();
  });

  it('passes every check but the known deviations', () => {
    const failures = report.results.filter((result) => result.status === 'fail');
    const known = new Set(KNOWN_DEVIATIONS.map((deviation) => deviation.checkId));
    console.log(
      `KNOWN_DEVIATIONS of the reference server (${KNOWN_DEVIATIONS.length}):\n${
        KNOWN_DEVIATIONS.map((deviation) => `  ${deviation.checkId} [${deviation.section}]: ${deviation.note}`).join(
          '\n',
        ) || '  none'
      }`,
    );
    const fixed = KNOWN_DEVIATIONS.filter((deviation) => !failures.some((failure) => failure.id === deviation.checkId));
    if (fixed.length > 0)
      console.log(
        `Known deviations that now pass (delete them from the list): ${fixed.map((each) => each.checkId).join(', ')}`,
      );
    const unexpected = failures.filter((failure) => !known.has(failure.id));
    expect(
      unexpected.map((failure) => formatResult(failure)),
      formatReport(report),
    ).toEqual([]);
  });

  it('runs every group, skipping only what cannot be checked from outside in a short run', () => {
    expect(report.groups).toEqual([
      'setup',
      'envelope',
      'memories',
      'context',
      'search',
      'graph',
      'sessions',
      'skills',
      'management',
      'mcp',
      'errors',
      'isolation',
      'cleanup',
    ]);
    const skipped = report.results.filter((result) => result.status === 'skip').map((result) => result.id);
    // Expansion needs a canary rollout, which a fresh tenant's quality gate blocks; no 429 is met below the limit.
    expect(skipped.sort()).toEqual(['errors.api-key-expired', 'errors.rate-limited', 'graph.expansion-explainability']);
    expect(report.summary.total).toBeGreaterThan(150);
    for (const result of report.results) expect(result.section, result.id).not.toBe('');
  });

  it('leaves nothing behind: memories purged, tenant mappings disabled', async () => {
    expect(
      report.results.filter((result) => result.group === 'cleanup').map((result) => [result.id, result.status]),
    ).toEqual([
      ['cleanup.sessions', 'pass'],
      ['cleanup.skill-files', 'pass'],
      ['cleanup.memories', 'pass'],
      ['cleanup.tenants', 'pass'],
    ]);
    const response = await fetch(`${reference.server.url}/api/sdk/v1/management/tenant-overrides`, {
      headers: { Authorization: `Bearer ${API_KEY}` },
    });
    const { data } = (await response.json()) as { data: { tenants: { tenantId: string; status: string }[] } };
    const mine = data.tenants.filter((tenant) => tenant.tenantId.startsWith(report.namespace.tenantIds[0]!));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.every((tenant) => tenant.status === 'disabled')).toBe(true);
  });
});

describe('a server with its feature flags off', () => {
  let reference: TestServer;

  beforeAll(async () => {
    reference = await startReferenceServer({
      MEMORY_SESSION_ENABLED: 'false',
      MEMORY_CONSOLIDATION_ENABLED: 'false',
      MEMORY_PROCEDURAL_ENABLED: 'false',
    });
  });

  afterAll(async () => {
    await reference?.stop();
  });

  it('reports the flagged checks as skipped with the 403 code, not as failures (no admin token: key checks skipped)', async () => {
    const report = await runConformance({
      baseUrl: reference.server.url,
      apiKey: API_KEY,
      only: ['sessions', 'memories', 'management'],
    });
    expect(report.results.filter((result) => result.status === 'fail').map((result) => formatResult(result))).toEqual(
      [],
    );
    const reasons = new Map(report.results.map((result) => [result.id, result.reason ?? '']));
    expect(reasons.get('sessions.start')).toContain('MEMORY_SESSION_DISABLED');
    expect(reasons.get('sessions.checkpoint')).toContain('needs sessions/start');
    expect(reasons.get('memories.consolidate-dry-run')).toContain('MEMORY_CONSOLIDATION_DISABLED');
    expect(reasons.get('management.keys-inventory')).toContain('--admin-token');
    expect(report.groups).toEqual(['setup', 'memories', 'sessions', 'management', 'cleanup']);
  });
});
