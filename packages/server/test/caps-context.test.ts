import { DEFAULTS, LIMITS } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

interface Bundle {
  rules: Array<{ content: string }>;
  skillFiles: Array<{ path: string; content: string }>;
  trace: { rulesTruncated: boolean; skillFilesOmitted: number };
}

/** A skill file body of exactly `length` characters that mentions `word`. */
function skillContent(word: string, length: number, filler = 'x'): string {
  const head = `# ${word}\n`;
  return head + filler.repeat(length - head.length);
}

describe('context/get skill files: whole files within LIMITS.contextSkillFileBytes', () => {
  const tenant = { tenantId: 'skills-budget' };

  it('leaves out whole files past the byte budget and says how many in the trace', async () => {
    const largest = LIMITS.skillContent.max;
    // Four files of 120,000 one-byte characters: three fit in 384 KiB (360,000 bytes), the fourth does not.
    for (const name of ['alpha', 'bravo', 'charlie', 'delta']) {
      await server.post('/skills/files/upsert', {
        path: `skills/${name}.md`,
        content: skillContent(name, largest),
        scope: tenant,
      });
    }
    const bundle = await server.post<Bundle>('/context/get', { query: 'alpha', scope: tenant });
    expect(bundle.skillFiles).toHaveLength(3);
    expect(bundle.skillFiles[0]?.path).toBe('skills/alpha.md');
    expect(bundle.skillFiles.every((file) => file.content.length === largest)).toBe(true);
    expect(bundle.trace.skillFilesOmitted).toBe(1);
    const bytes = bundle.skillFiles.reduce((total, file) => total + Buffer.byteLength(file.content), 0);
    expect(bytes).toBeLessThanOrEqual(LIMITS.contextSkillFileBytes);
    // A left-out file was not used: only the returned files' use counts go up.
    const listed = await server.post<{ skillFiles: Array<{ path: string; useCount: number }> }>('/skills/files/list', {
      scope: tenant,
    });
    expect(listed.skillFiles.filter((file) => file.useCount === 0)).toHaveLength(1);
  });

  it('returns the best file even at the largest size allowed (3 bytes a character); skips, never cuts, the next', async () => {
    const scope = { tenantId: 'skills-wide' };
    await server.post('/skills/files/upsert', {
      path: 'skills/wide.md',
      content: skillContent('wide', LIMITS.skillContent.max, '語'),
      scope,
    });
    await server.post('/skills/files/upsert', { path: 'skills/tiny.md', content: '# tiny\nshort', scope });
    // Ranked before tiny.md (more recent), too large for what wide.md leaves of the budget.
    await server.post('/skills/files/upsert', {
      path: 'skills/second.md',
      content: skillContent('second', 40_000),
      scope,
    });
    const bundle = await server.post<Bundle>('/context/get', { query: 'wide', scope });
    expect(bundle.skillFiles.map((file) => file.path)).toEqual(['skills/wide.md', 'skills/tiny.md']);
    expect(bundle.skillFiles[0]?.content).toHaveLength(LIMITS.skillContent.max);
    expect(bundle.trace.skillFilesOmitted).toBe(1);
  });

  it('reports nothing omitted when everything fits', async () => {
    const scope = { tenantId: 'skills-small' };
    await server.post('/skills/files/upsert', { path: 'skills/one.md', content: '# one\nstep', scope });
    const bundle = await server.post<Bundle>('/context/get', { query: 'one', scope });
    expect(bundle.skillFiles).toHaveLength(1);
    expect(bundle.trace.skillFilesOmitted).toBe(0);
    expect(DEFAULTS.contextSkillFiles).toBe(100);
  });
});

describe('context/get rules: at most LIMITS.contextRules.max, the newest', () => {
  it('returns 100 of 101 rules and says rules were left out; none when all fit', async () => {
    const scope = { tenantId: 'many-rules' };
    for (let index = 0; index < LIMITS.contextRules.max; index += 1) {
      await server.post('/memories/add', { content: `Rule number ${index}`, type: 'rule', scope });
    }
    const full = await server.post<Bundle>('/context/get', { query: 'rule', mode: 'rules_only', scope });
    expect(full.rules).toHaveLength(100);
    expect(full.trace.rulesTruncated).toBe(false);

    await server.post('/memories/add', { content: 'Rule number 100', type: 'rule', scope });
    const over = await server.post<Bundle>('/context/get', { query: 'rule', scope });
    expect(over.rules).toHaveLength(100);
    expect(over.rules[0]?.content).toBe('Rule number 100');
    expect(over.rules.map((rule) => rule.content)).not.toContain('Rule number 0');
    expect(over.trace.rulesTruncated).toBe(true);
  });

  it('does not let superseded rules take a place', async () => {
    const scope = { tenantId: 'superseded-rules' };
    const { id: old } = await server.post<{ id: string }>('/memories/add', {
      content: 'Old rule',
      type: 'rule',
      scope,
    });
    const { id: current } = await server.post<{ id: string }>('/memories/add', {
      content: 'Current rule',
      type: 'rule',
      scope,
    });
    const tenant = await server.services.resolver.resolve('default', 'superseded-rules', new Date());
    await tenant.database.run('UPDATE memories SET superseded_by = ? WHERE id = ?', [current, old]);
    const bundle = await server.post<Bundle>('/context/get', { query: 'rule', mode: 'rules_only', scope });
    expect(bundle.rules.map((rule) => rule.content)).toEqual(['Current rule']);
    expect(bundle.trace.rulesTruncated).toBe(false);
  });
});
