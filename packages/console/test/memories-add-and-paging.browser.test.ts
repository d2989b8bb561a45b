import type { Memory, MemoryClient } from '@memory-service/client';
import { DEFAULTS } from '@memory-service/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { consumeExpectedErrors, signIn, useConsoleTab } from './console-tab.js';

// The Memories page as a person uses it every day: add a memory (and see a repeat folded into the one already
// kept), walk a list longer than one page with Load more, and open any memory by pasting its id.
const SCOPE = { userId: 'ines', projectId: 'add-and-paging-e2e' };
const SEEDED = DEFAULTS.listLimit * 2 + 7;
const tab = useConsoleTab(SCOPE);
let server: BuiltServer;
let page: Page;
let client: MemoryClient;
let oldest: Memory;

beforeAll(async () => {
  ({ server, page, client } = tab);
  for (let index = 0; index < SEEDED; index += 1) {
    const { memory } = await client.memories.add({
      content: `Inventory note ${index}: shelf ${index} holds box ${index * 7}.`,
      type: 'note',
    });
    if (index === 0) oldest = memory;
  }
  await signIn(tab, SCOPE);
});

function rows() {
  return page.locator('.memory-row');
}

describe('adding memories in the console', () => {
  it('adds a memory from the dialog, with the date it happened, and lists it first', async () => {
    await page.getByRole('button', { name: 'Add memory…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a memory' });
    await dialog.getByLabel('Content').fill('The warehouse closes early on the last Friday of each month.');
    await dialog.getByLabel('Type').selectOption('rule');
    // The layer follows the type until the person picks one: a rule is stored as a rule, served in every answer.
    expect(await dialog.getByLabel('Layer').inputValue()).toBe('rule');
    await dialog.getByLabel('Tags').fill('warehouse, hours');
    await dialog.getByLabel('Happened at').fill('2026-03-02T09:30');
    await screenshot(page, 'm01-add-memory-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Add memory' }).click();
    await page.getByRole('status').filter({ hasText: 'Added.' }).waitFor();
    await page.locator('.results[aria-busy="false"]').waitFor();
    await expect.poll(() => rows().first().textContent()).toContain('The warehouse closes early');

    const stored = (await client.memories.list({ limit: 1 })).memories[0]!;
    expect(stored.content).toBe('The warehouse closes early on the last Friday of each month.');
    expect(stored.type).toBe('rule');
    expect(stored.layer).toBe('rule');
    expect(stored.tags).toEqual(['warehouse', 'hours']);
    // The field is in the browser's zone; what the server keeps is that moment in UTC.
    const sent = await page.evaluate(() => new Date('2026-03-02T09:30').toISOString());
    expect(stored.occurredAt).toBe(sent);
  });

  it('says a repeated memory is already remembered and stores no copy', async () => {
    const before = (await client.memories.list({ limit: 100 })).count;
    await page.getByRole('button', { name: 'Add memory…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a memory' });
    await dialog.getByLabel('Content').fill('the warehouse closes early on the last Friday of each month');
    await dialog.getByLabel('Type').selectOption('rule');
    await dialog.getByRole('button', { name: 'Add memory' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Already remembered' });
    await notice.waitFor();
    await screenshot(page, 'm02-add-memory-deduplicated', { fullPage: false });
    expect((await client.memories.list({ limit: 100 })).count).toBe(before);
    // Its link opens the memory the service kept.
    await notice.getByRole('link', { name: 'Open it' }).click();
    const opened = page.getByRole('dialog', { name: 'Memory' });
    await opened.locator('.memory-content', { hasText: 'The warehouse closes early' }).waitFor();
    await page.keyboard.press('Escape');
  });
});

describe('paging and opening by id', () => {
  it('walks the whole list with Load more, each memory once, then offers no more', async () => {
    await page.goto(`${server.url}/console/memories`);
    await page.locator('.results[aria-busy="false"]').waitFor();
    expect(await rows().count()).toBe(DEFAULTS.listLimit);
    const more = page.getByRole('button', { name: 'Load more' });
    await more.click();
    await expect.poll(() => rows().count()).toBe(DEFAULTS.listLimit * 2);
    await more.click();
    const total = SEEDED + 1;
    await expect.poll(() => rows().count()).toBe(total);
    expect(await more.count()).toBe(0);
    const ids = await rows().evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('data-memory-id')),
    );
    expect(new Set(ids).size).toBe(total);
    // Newest first: the oldest seeded memory is the last row.
    expect(ids.at(-1)).toBe(oldest.id);
    await rows().last().scrollIntoViewIfNeeded();
    await screenshot(page, 'm03-memories-all-pages', { fullPage: false });
  });

  it('opens a memory from its pasted id, and says when no memory has that id', async () => {
    await page.goto(`${server.url}/console/memories`);
    await page.locator('.results[aria-busy="false"]').waitFor();
    const form = page.getByRole('form', { name: 'Open a memory by id' });
    await form.getByLabel('Memory id').fill(`  ${oldest.id} `);
    await form.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL(`${server.url}/console/memories?memory=${oldest.id}`);
    const dialog = page.getByRole('dialog', { name: 'Memory' });
    await dialog.locator('.memory-content', { hasText: 'Inventory note 0:' }).waitFor();
    await page.keyboard.press('Escape');

    await form.getByLabel('Memory id').fill('00000000-0000-4000-8000-000000000000');
    await form.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('status').filter({ hasText: 'No memory' }).waitFor();
    // The browser logs the 404 of memories/{id} that told the page so.
    await expect.poll(() => tab.errors.some((line) => /404/.test(line))).toBe(true);
    consumeExpectedErrors(tab.errors, /404/);
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/console/memories`);
    await page.locator('.results[aria-busy="false"]').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'm04-memories-phone', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
