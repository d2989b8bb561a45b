import type { MemoryClient } from '@memory-service/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { consumeExpectedErrors, useConsoleTab } from './console-tab.js';

// One real server (the built `memory-service start`) and one real Chromium for the file; the tests run in order and
// share one tab, as a person would use the console. The undo toasts expire on the page's clock, which the forget test
// moves forward instead of waiting.
const SCOPE = { userId: 'ada', projectId: 'console-e2e' };
const tab = useConsoleTab(SCOPE, { clock: true });
let server: BuiltServer;
let page: Page;
let errors: string[];
let client: MemoryClient;

beforeAll(() => {
  ({ server, page, errors, client } = tab);
});

function row(content: string) {
  return page.getByRole('listitem').filter({ has: page.locator('.memory-row__content', { hasText: content }) });
}

async function applyFilters(): Promise<void> {
  await page.getByRole('button', { name: /Apply filters|Search/ }).click();
  await page.locator('.results[aria-busy="false"]').waitFor();
}

describe('the console in a real browser', () => {
  it('is served at /console with a strict CSP, and `memory-service start` prints its address', async () => {
    expect(server.banner).toContain(`Console   ${server.url}/console`);
    const response = await fetch(`${server.url}/console/memories`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).not.toMatch(/<script>|<style>|https?:\/\//);
    const asset = /\/console\/assets\/console-\w+\.js/.exec(html)?.[0];
    const script = await fetch(`${server.url}${asset}`);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}/console/assets/missing.js`)).status).toBe(404);
  });

  it('refuses a wrong key with the contract error, then signs in with the key, the admin token and a scope', async () => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel('API key').fill(`mem_${'0f'.repeat(32)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('INVALID_API_KEY');
    consumeExpectedErrors(errors, /401/);
    await screenshot(page, '01-sign-in-refused');

    await page.getByLabel('API key').fill(server.apiKey);
    await page.getByLabel('Admin token (optional)').fill(server.adminToken);
    await page.getByLabel('User').fill(SCOPE.userId);
    await page.getByLabel('Project').fill(SCOPE.projectId);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
    await page.waitForURL(`${server.url}/console/memories`);
    expect(page.url()).not.toContain(server.apiKey);
    await page.getByText('No memories in this scope').waitFor();
    await expect.poll(() => page.getByLabel('Current scope').textContent()).toContain('console-e2e');
    await screenshot(page, '02-memories-empty');
  });

  it('lists a memory added through the API, and filters by type and tag', async () => {
    await client.memories.add({
      content: 'Deploys go out on Tuesdays after the standup',
      type: 'rule',
      tags: ['deploys'],
    });
    await client.memories.add({ content: 'The billing service is written in Go', type: 'fact', tags: ['billing'] });
    await client.memories.add({ content: 'Ada prefers short answers with code first', type: 'note', tags: ['style'] });
    await client.memories.add({ content: 'Scratch note: try the new linter', type: 'note', tags: ['scratch'] });
    await applyFilters();
    await row('Deploys go out on Tuesdays').waitFor();
    await expect.poll(() => page.locator('.memory-row').count()).toBe(4);
    await screenshot(page, '03-memories-list');

    await page.getByLabel('Type').selectOption('fact');
    await applyFilters();
    await expect.poll(() => page.locator('.memory-row').count()).toBe(1);
    await row('billing service').waitFor();

    await page.getByLabel('Type').selectOption('');
    await page.getByRole('textbox', { name: 'Tags' }).fill('style, deploys');
    await applyFilters();
    await expect.poll(() => page.locator('.memory-row').count()).toBe(2);
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.locator('.memory-row').count()).toBe(4);
  });

  it('searches with full text and hybrid retrieval and shows the trace', async () => {
    await page.getByLabel('Search').fill('deploys tuesday');
    await page.getByLabel('Strategy').selectOption('lexical');
    await applyFilters();
    await row('Deploys go out on Tuesdays').waitFor();
    await expect.poll(() => page.locator('.search-trace').textContent()).toContain('lexical');

    await page.getByLabel('Strategy').selectOption('hybrid');
    await applyFilters();
    await row('Deploys go out on Tuesdays').waitFor();
    await expect.poll(() => page.locator('.search-trace').textContent()).toMatch(/Strategy hybrid/);
    await expect.poll(() => row('Deploys go out on Tuesdays').textContent()).toMatch(/score \d/);
    await screenshot(page, '04-memories-search');
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.locator('.memory-row').count()).toBe(4);
  });

  it('opens a memory with all its fields and edits it', async () => {
    await row('billing service').getByRole('button', { name: 'Open' }).click();
    const dialog = page.getByRole('dialog', { name: 'Memory' });
    await dialog.waitFor();
    for (const field of ['id', 'type', 'layer', 'tags', 'category', 'embeddingModel', 'createdAt', 'updatedAt']) {
      await expect.poll(() => dialog.locator('dt', { hasText: new RegExp(`^${field}$`) }).count()).toBe(1);
    }
    await screenshot(page, '05-memory-details', { fullPage: false });

    await dialog.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit memory' });
    await form.getByLabel('Content').fill('The billing service is written in Go 1.24');
    await form.getByLabel('Type').selectOption('decision');
    await form.getByLabel('Tags').fill('billing, go');
    await form.getByLabel('Category').fill('architecture');
    await screenshot(page, '06-memory-edit', { fullPage: false });
    await form.getByRole('button', { name: 'Save changes' }).click();
    const updated = page.getByRole('dialog', { name: 'Memory' });
    await updated.getByText('The billing service is written in Go 1.24').first().waitFor();
    await page.keyboard.press('Escape');
    await row('Go 1.24').waitFor();

    const { memories } = await client.memories.list({ type: 'decision' });
    expect(memories.map(({ content, tags, category }) => ({ content, tags, category }))).toEqual([
      { content: 'The billing service is written in Go 1.24', tags: ['billing', 'go'], category: 'architecture' },
    ]);
  });

  it('forgets at once, and Undo restores the memory through memories/restore', async () => {
    const scratchListed = async () =>
      (await client.memories.list()).memories.some((memory) => memory.content.startsWith('Scratch'));
    const target = row('Scratch note');
    await target.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('dialog', { name: 'Memory' }).getByRole('button', { name: 'Forget' }).click();
    const toasts = page.getByLabel('Recent changes');
    await toasts.getByText('Forgot “Scratch note').waitFor();
    await expect.poll(() => target.count()).toBe(0);
    // Soft-deleted at once: the API no longer lists it.
    expect(await scratchListed()).toBe(false);
    await screenshot(page, '07-forget-undo');

    await toasts.getByRole('button', { name: 'Undo' }).click();
    await toasts.getByText('undone').waitFor();
    await target.getByRole('button', { name: 'Open' }).waitFor();
    expect(await scratchListed()).toBe(true);
    // The toast goes away by itself.
    await page.clock.fastForward(15_000);
    await expect.poll(() => toasts.locator('.toast').count()).toBe(0);

    // Forgotten again without Undo: it stays forgotten once the toast is gone.
    await target.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('dialog', { name: 'Memory' }).getByRole('button', { name: 'Forget' }).click();
    await expect.poll(() => target.count()).toBe(0);
    await page.clock.fastForward(15_000);
    await expect.poll(() => toasts.locator('.toast').count()).toBe(0);
    expect(await scratchListed()).toBe(false);
  });

  it('bulk-forgets with the dry-run preview first', async () => {
    await page.getByRole('button', { name: 'Bulk forget…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk forget' });
    await dialog.getByLabel('note', { exact: true }).check();
    await dialog.getByRole('button', { name: 'Preview (dry run)' }).click();
    await dialog.getByText('1 memory would be forgotten').waitFor();
    await dialog.getByText('Ada prefers short answers').waitFor();
    // The dry run changed nothing.
    expect((await client.memories.list({ type: 'note' })).count).toBe(1);
    await screenshot(page, '08-bulk-forget-preview', { fullPage: false });

    await dialog.getByRole('button', { name: 'Forget 1 memory' }).click();
    await dialog.getByText('Forgot 1 memory').waitFor();
    expect((await client.memories.list({ type: 'note' })).count).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.memory-row').count()).toBe(2);
  });

  it('shows a refused call in the contract words, and the scope picker changes the scope of every call', async () => {
    await page.getByRole('button', { name: 'Change scope' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change scope' });
    await dialog.getByLabel('Tenant').fill('not a valid tenant!');
    await dialog.getByRole('button', { name: 'Apply scope' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('TENANT_ID_INVALID');
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    consumeExpectedErrors(errors, /400/);
    await screenshot(page, '09-memories-error');

    await page.getByRole('button', { name: 'Change scope' }).click();
    await dialog.getByLabel('Tenant').fill('');
    await dialog.getByRole('button', { name: 'Apply scope' }).click();
    await expect.poll(() => page.locator('.memory-row').count()).toBe(2);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
  });

  it('reaches every other page from the nav by keyboard', async () => {
    for (const [name, slug] of [
      ['Context preview', 'context'],
      ['Graph', 'graph'],
      ['Sessions', 'sessions'],
      ['Skill files', 'skill-files'],
      ['Operations', 'operations'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name }).waitFor();
      // The shell moves focus to the new page's title (for screen readers); the next link is focused after that.
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
      expect(page.url()).toBe(`${server.url}/console/${slug}`);
      // Every page is built: Context preview and Graph (test/context-and-graph.browser.test.ts), Sessions, Skill
      // files and Operations (test/sessions-skills-operations.browser.test.ts) have their own tests.
    }
    await screenshot(page, '10-page-by-keyboard');
    await page.goto(`${server.url}/console/no-such-page`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  });

  it('folds the nav behind a Menu button on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/console/memories`);
    await row('Deploys go out on Tuesdays').waitFor();
    const nav = page.getByRole('navigation', { name: 'Console pages' });
    expect(await nav.isVisible()).toBe(false);
    await screenshot(page, '11-phone-memories');
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Sessions' }).waitFor();
    await screenshot(page, '12-phone-menu-open');
    await nav.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
    // The shell folds the nav once the new page has rendered (an effect after the route change): wait for it.
    await nav.waitFor({ state: 'hidden', timeout: 5_000 });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('signs out: the credentials leave session storage', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await screenshot(page, '13-signed-out');
  });
});
