import { createMemoryClient, type MemoryClient } from '@memory-service/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { signIn, useConsoleTab, waitForIndexing } from './console-tab.js';

// The Sessions, Skill files and Operations pages against the built server, in one tab, in order: sessions started
// through the client are listed, one is opened with its events, checkpointed, ended and promoted in the console; skill files are created, edited and
// deleted; an API key is created, copied and revoked; tenants, usage, backfill and the charts are read.
const SCOPE = { userId: 'grace', projectId: 'console-ops' };
// The charts sample every 10 s on the page's clock, which the tests move forward instead of waiting.
const tab = useConsoleTab(SCOPE, { clipboard: true, clock: true });
let server: BuiltServer;
let page: Page;
let client: MemoryClient;
let admin: MemoryClient;
let sessionId: string;

beforeAll(() => {
  ({ server, page, client, admin } = tab);
});

async function openPage(name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

async function openSection(name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Operations sections' }).getByRole('link', { name }).click();
  await page.locator(`.section-tabs__link[aria-current="page"]`, { hasText: name }).waitFor();
}

/** The page fits its width: nothing scrolls sideways. */
async function expectNoSidewaysScroll(): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('sessions, skill files and operations in a real browser', () => {
  it('signs in with the key, the admin token and a scope', async () => {
    await signIn(tab, SCOPE, { adminToken: true });
  });

  it("lists the scope's sessions and opens an active one with its events", async () => {
    await openPage('Sessions');
    await page.getByText('No session in this scope').waitFor();
    await screenshot(page, 's01-sessions-index-empty');

    const started = await client.sessions.start({ title: 'Fix the flaky deploy', client: 'e2e' });
    sessionId = started.sessionId;
    await client.sessions.checkpoint({ sessionId, content: 'How do I deploy the billing service?', role: 'user' });
    await client.sessions.checkpoint({
      sessionId,
      content: 'Run `pnpm deploy billing`, then watch the error rate for ten minutes.',
      role: 'assistant',
    });
    const other = await client.sessions.start({ title: 'Rotate the API keys', client: 'e2e' });
    await client.sessions.end({ sessionId: other.sessionId, status: 'closed' });

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
    const table = page.locator('.data-table table');
    const listed = table.getByRole('row').filter({ hasText: 'Fix the flaky deploy' });
    await listed.waitFor();
    // Newest activity first: the closed session was touched last.
    expect(await table.locator('tbody tr').first().textContent()).toContain('Rotate the API keys');
    expect(await listed.textContent()).toContain('active');
    expect(await listed.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['1', '2']));
    await screenshot(page, 's01b-sessions-list');

    await page.getByLabel('Status').selectOption('closed');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await table.textContent()).toContain('Rotate the API keys');
    await page.getByLabel('Status').selectOption('active');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await listed.getByRole('link', { name: 'Fix the flaky deploy' }).click();

    await page.waitForURL(`${server.url}/console/sessions/${sessionId}`);
    await page.getByRole('heading', { level: 1, name: 'Session: Fix the flaky deploy' }).waitFor();
    // The events of an active session, as the API returns them (sessions/events).
    const events = page.getByRole('list', { name: 'Session events' });
    await events.getByText('How do I deploy the billing service?').waitFor();
    await events.getByText('Run `pnpm deploy billing`').waitFor();

    await page.getByLabel('Role').selectOption('assistant');
    await page.getByLabel('Kind').selectOption('summary');
    await page.getByLabel('Content').fill('Deploy billing with pnpm deploy, then watch the error rate.');
    await page.getByRole('button', { name: 'Add checkpoint' }).click();
    await events.getByText('Deploy billing with pnpm deploy').waitFor();
    await expect.poll(() => events.locator('.checkpoint-list__item').count()).toBe(3);
    await expect.poll(() => page.getByLabel('Session totals').textContent()).toContain('Events3');
    expect((await client.sessions.events({ sessionId })).count).toBe(3);
    await screenshot(page, 's02-session-active');
  });

  it('ends the session and shows its snapshot with the transcript', async () => {
    await page.getByRole('button', { name: 'End session…' }).click();
    const dialog = page.getByRole('dialog', { name: 'End session?' });
    await dialog.getByText('No checkpoint can be added afterwards').waitFor();
    await screenshot(page, 's03-session-end-confirm', { fullPage: false });
    await dialog.getByRole('button', { name: 'End session' }).click();

    await page.getByRole('heading', { level: 1, name: 'Session: Fix the flaky deploy' }).waitFor();
    const transcript = page.locator('.transcript');
    await expect.poll(() => transcript.textContent()).toContain('How do I deploy the billing service?');
    await expect.poll(() => transcript.textContent()).toContain('### 3. assistant · summary');
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
    await screenshot(page, 's04-session-snapshot');
    const { snapshot } = await client.sessions.snapshot(sessionId);
    expect(snapshot.messageCount).toBe(3);
  });

  it('promotes the session to a skill file and opens the file', async () => {
    const form = page.getByRole('form', { name: 'Promote to a skill file' });
    await expect.poll(() => form.getByLabel('Path').inputValue()).toMatch(/^skills\/fix-the-flaky-deploy-\w{8}\.md$/);
    await form.getByLabel('Path').fill('skills/deploy-billing.md');
    await form.getByRole('button', { name: 'Promote to skill file' }).click();
    await form.getByText(/promoted to skills\/deploy-billing\.md/).waitFor();
    await form.getByRole('link', { name: 'Open skill file skills/deploy-billing.md' }).click();

    await page.getByRole('heading', { level: 1, name: 'Fix the flaky deploy' }).waitFor();
    await expect.poll(() => page.locator('.skill-content').textContent()).toContain('## Steps');
    await page.getByRole('link', { name: sessionId }).waitFor();
    await screenshot(page, 's05-skill-file-promoted');

    // The sessions index lists it as closed now.
    await openPage('Sessions');
    const listed = page.locator('.data-table tbody tr').filter({ hasText: 'Fix the flaky deploy' });
    await expect.poll(() => listed.textContent()).toContain('closed');
    await screenshot(page, 's06-sessions-index-ended');
  });

  it('creates, edits and deletes a skill file', async () => {
    await openPage('Skill files');
    await page.getByRole('link', { name: 'skills/deploy-billing.md' }).waitFor();
    await page.getByRole('button', { name: 'New skill file' }).click();
    const dialog = page.getByRole('dialog', { name: 'New skill file' });
    await dialog.getByLabel('Path').fill('skills/rollback.md');
    await dialog.getByLabel('Content').fill('# Roll back a deploy\n\n1. Run `pnpm rollback billing`\n2. Tell #ops');
    await screenshot(page, 'k01-skill-file-new', { fullPage: false });
    await dialog.getByRole('button', { name: 'Create skill file' }).click();

    await page.getByRole('heading', { level: 1, name: 'Roll back a deploy' }).waitFor();
    await page.waitForURL(`${server.url}/console/skill-files/skills%2Frollback.md`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit skill file' });
    await edit
      .getByLabel('Content')
      .fill('# Roll back a deploy\n\n1. Run `pnpm rollback billing`\n2. Tell #ops\n3. Open an incident');
    await screenshot(page, 'k02-skill-file-edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.skill-content').textContent()).toContain('3. Open an incident');
    await screenshot(page, 'k03-skill-file-view');
    const saved = (await client.skills.list()).skillFiles.find((file) => file.path === 'skills/rollback.md');
    expect(saved?.content).toContain('3. Open an incident');
    expect(saved?.title).toBe('Roll back a deploy');

    await page.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete skill file?' });
    await confirm.getByText('has no restore').waitFor();
    await screenshot(page, 'k04-skill-file-delete-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Delete skill file' }).click();
    await page.getByRole('heading', { level: 1, name: 'Skill files' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Deleted skills/rollback.md' }).waitFor();
    await expect.poll(() => page.getByRole('list', { name: 'Skill files' }).getByRole('listitem').count()).toBe(1);
    await screenshot(page, 'k05-skill-files-list');
    expect((await client.skills.list()).skillFiles.map((file) => file.path)).toEqual(['skills/deploy-billing.md']);
  });

  it('creates an API key shown once with a copy button, and revokes it', async () => {
    await openPage('Operations');
    await page.locator('.section-tabs__link[aria-current="page"]', { hasText: 'API keys' }).waitFor();
    await page.getByLabel('Key status').waitFor();
    await page.getByLabel('Expires after').selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const input = page.getByRole('textbox', { name: 'New API key' });
    await input.waitFor();
    const apiKey = await input.inputValue();
    expect(apiKey).toMatch(/^mem_[0-9a-f]{64}$/);
    await page.getByText('it is shown only this once').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    const keyRow = page.getByRole('row').filter({ hasText: apiKey.slice(0, 12) });
    await keyRow.getByText('active').waitFor();
    await screenshot(page, 'o01-key-created');
    const withNewKey = createMemoryClient({ baseUrl: server.url, apiKey, scope: SCOPE, maxRetries: 0 });
    await withNewKey.memories.list();

    await page.getByRole('button', { name: 'I stored it: hide the key' }).click();
    await expect.poll(() => input.count()).toBe(0);
    await keyRow.getByRole('button', { name: /^Revoke/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
    await confirm.getByText('cannot be restored').waitFor();
    await screenshot(page, 'o02-key-revoke-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'Key revoked' }).waitFor();
    await keyRow.getByText('revoked', { exact: true }).waitFor();
    await expect(withNewKey.memories.list()).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
    // The key the console signed in with is marked, and still active.
    await page.getByRole('row').filter({ hasText: 'this console' }).getByText('active').waitFor();
    await screenshot(page, 'o03-keys-after-revoke');
  });

  it('lists tenants and their databases, maps one and disables it', async () => {
    await createMemoryClient({
      baseUrl: server.url,
      apiKey: server.apiKey,
      scope: { tenantId: 'acme', userId: 'grace' },
      maxRetries: 0,
    }).memories.add({ content: 'Acme ships on Fridays' });
    await openSection('Tenants');
    const acme = page.getByRole('row').filter({ hasText: 'acme' });
    await acme.getByText('ready').waitFor();
    await acme.getByText('provision (auto)').waitFor();
    await expect.poll(() => acme.textContent()).toMatch(/file:tenants\/default\/acme-\w+\.db/);

    await page.getByLabel('Tenant', { exact: true }).fill('beta');
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByRole('status').filter({ hasText: 'Tenant mapping created: beta (ready)' }).waitFor();
    const beta = page.getByRole('row').filter({ hasText: 'beta' });
    await beta.getByText('provision (override)').waitFor();
    await screenshot(page, 'o04-tenants');

    await beta.getByRole('button', { name: 'Disable beta' }).click();
    await page
      .getByRole('dialog', { name: 'Disable this tenant?' })
      .getByRole('button', { name: 'Disable tenant' })
      .click();
    await beta.getByText('disabled').waitFor();
    const { tenants } = await admin.management.tenants.list();
    expect(tenants.map(({ tenantId, status }) => ({ tenantId, status }))).toEqual([
      { tenantId: 'acme', status: 'ready' },
      { tenantId: 'beta', status: 'disabled' },
    ]);
  });

  it('shows embedding usage and runs a backfill batch', async () => {
    await client.memories.add({ content: 'The billing dashboard lives at /grafana/billing', type: 'fact' });
    // The page reads usage once: wait until the indexer (slow on a busy machine) has embedded the memory.
    await waitForIndexing(client);
    await openSection('Embeddings');
    const totals = page.getByLabel('Usage totals');
    await expect
      .poll(async () => Number((await totals.locator('dd').first().textContent()) ?? '0'), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await page.getByRole('table').getByText('local/hash-384').first().waitFor();
    await page.getByLabel('Backfill progress').waitFor();
    await page.getByRole('button', { name: 'Run one batch' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Embedded \d+ memor/ })
      .waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).and(page.locator(':enabled')).waitFor();
    await screenshot(page, 'o05-embeddings');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).and(page.locator(':enabled')).waitFor();
  });

  it('plots the observability charts from the server’s stored history, and from samples taken every 10 s', async () => {
    // A contradiction for the daily trend (consolidation supersedes the older statement), and retrievals for latency.
    await client.memories.add({ content: 'Deploys go out on Tuesdays', type: 'rule' });
    await client.memories.add({ content: 'Deploys go out on Wednesdays', type: 'rule' });
    await client.memories.consolidate({ dryRun: false });
    for (const query of ['deploys', 'billing dashboard', 'rollback']) {
      await client.memories.search({ query, strategy: 'hybrid' });
    }

    await openSection('Observability');
    const contradictions = page.getByRole('figure', { name: /Contradictions per day/ });
    await contradictions.locator('.chart__bar-value', { hasText: '1' }).waitFor();
    const memories = page.getByRole('figure', { name: /^Memories/ });
    await expect.poll(() => memories.locator('.chart__legend').textContent()).toMatch(/Active: \d+ memories/);
    const latency = page.getByRole('figure', { name: /Retrieval latency/ });
    await expect.poll(() => latency.locator('.chart__legend').textContent()).toMatch(/p95: [\d.]+ ms/);
    // The server's history draws the whole window at once, before the tab has taken a second sample: one point per
    // 6-hour bucket of the 7 days, and the latency of the searches just made.
    const changes = page.getByRole('figure', { name: /Changes over the last 7 days/ });
    expect(await changes.locator('.chart__caption').textContent()).toContain(
      'created, updated and deleted per 6 hours, from what the server stored',
    );
    expect(await changes.locator('path').first().getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+){27}$/);
    expect(await changes.locator('.chart__legend').textContent()).toMatch(/Created: \d+ memor(y|ies)/);
    expect(await latency.locator('.chart__caption').textContent()).toContain('from what the server stored');

    await page.clock.fastForward(10_000);
    await expect.poll(() => memories.locator('.chart__caption').textContent()).toContain('2 samples');
    await client.memories.add({ content: 'Rollbacks need a second reviewer', type: 'rule' });
    await page.clock.fastForward(10_000);
    await expect.poll(() => memories.locator('.chart__caption').textContent()).toContain('3 samples');
    await expect.poll(() => page.locator('.chart').count()).toBe(7);
    // Each sampled line is drawn through its three points.
    await expect
      .poll(() => memories.locator('path').first().getAttribute('d'))
      .toMatch(/^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+){2}$/);
    await screenshot(page, 'o06-observability');
  });

  it('reads at a phone width without scrolling sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.locator('.chart__svg').first().getAttribute('width')).toMatch(/^(2|3)\d\d$/);
    await expectNoSidewaysScroll();
    await screenshot(page, 'p01-phone-observability');
    for (const [section, name] of [
      ['API keys', 'p02-phone-keys'],
      ['Tenants', 'p03-phone-tenants'],
      ['Embeddings', 'p04-phone-embeddings'],
    ] as const) {
      await openSection(section);
      await page.locator('.data-table').first().waitFor();
      await expectNoSidewaysScroll();
      await screenshot(page, name);
    }
    await page.goto(`${server.url}/console/sessions/${sessionId}`);
    await page.locator('.transcript').waitFor();
    await expectNoSidewaysScroll();
    await screenshot(page, 'p05-phone-session');
    await page.goto(`${server.url}/console/skill-files/${encodeURIComponent('skills/deploy-billing.md')}`);
    await page.locator('.skill-content').waitFor();
    await expectNoSidewaysScroll();
    await screenshot(page, 'p06-phone-skill-file');
    await page.goto(`${server.url}/console/sessions`);
    await page.locator('.data-table').getByText('Fix the flaky deploy').waitFor();
    await expectNoSidewaysScroll();
    await screenshot(page, 'p07-phone-sessions');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
