import type { Memory, MemoryClient } from '@memory-service/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { signIn, useConsoleTab } from './console-tab.js';

// Issue 24 part 6 / issue 25 part 2: a memory's history in the console. One real server and one Chromium tab: a
// memory edited twice shows both earlier wordings, newest first, with when each held and that an edit replaced it; a
// memory that superseded another (consolidation) shows the one it replaced, linked, and when.
const SCOPE = { userId: 'hana', projectId: 'history-e2e' };
const tab = useConsoleTab(SCOPE);
let server: BuiltServer;
let page: Page;
let client: MemoryClient;
let edited: Memory;
let replaced: Memory;
let replacement: Memory;

beforeAll(async () => {
  ({ server, page, client } = tab);
  await signIn(tab, SCOPE);
});

function row(id: string) {
  return page.locator(`.memory-row[data-memory-id="${id}"]`);
}

async function openDialog(id: string) {
  await page.goto(`${server.url}/console/memories`);
  await page.locator('.results[aria-busy="false"]').waitFor();
  await row(id).getByRole('button', { name: 'Open' }).click();
  const dialog = page.getByRole('dialog', { name: 'Memory' });
  await dialog.locator('.memory-history[aria-busy="false"]').waitFor();
  return dialog;
}

describe('a memory’s history in the console', () => {
  it('seeds a memory edited twice and a memory superseded by consolidation', async () => {
    edited = (await client.memories.add({ content: 'The on-call rota changes on Mondays.', type: 'fact' })).memory;
    await client.memories.edit({ id: edited.id, content: 'The on-call rota changes on Tuesdays.' });
    await client.memories.edit({ id: edited.id, content: 'The on-call rota changes on Wednesdays.', tags: ['ops'] });
    replaced = (await client.memories.add({ content: 'Standup is at 9:30.', type: 'decision' })).memory;
    replacement = (await client.memories.add({ content: 'Standup is at 10:00.', type: 'decision' })).memory;
    const run = await client.memories.consolidate({ types: ['decision'] });
    expect(run.supersededMemoryIds).toContain(replaced.id);
  });

  it('lists the wordings an edit replaced, newest first, with their dates', async () => {
    const dialog = await openDialog(edited.id);
    await dialog.locator('.memory-content', { hasText: 'Wednesdays' }).waitFor();
    const versions = dialog.locator('.memory-version');
    expect(await versions.count()).toBe(2);
    expect(await versions.locator('.memory-version__content').allTextContents()).toEqual([
      'The on-call rota changes on Tuesdays.',
      'The on-call rota changes on Mondays.',
    ]);
    for (const version of await versions.all()) {
      expect(await version.getAttribute('data-change')).toBe('edited');
      expect(await version.locator('.badge').textContent()).toBe('edited');
      expect(await version.locator('.memory-version__meta').textContent()).toContain('replaced by an edit on');
    }
    // The oldest held from the memory's creation until the first edit, which began the next one.
    const history = await client.memories.history(edited.id);
    const times = (index: number) => versions.nth(index).locator('.memory-version__when time');
    expect(await times(1).first().getAttribute('datetime')).toBe(edited.createdAt);
    expect(await times(1).last().getAttribute('datetime')).toBe(history.versions[1]?.replacedAt);
    expect(await times(0).first().getAttribute('datetime')).toBe(history.versions[1]?.replacedAt);
    await dialog.locator('.memory-history').scrollIntoViewIfNeeded();
    await screenshot(page, 'h01-memory-history-edits', { fullPage: false });
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('shows the memory a consolidation superseded, linked, and opens it', async () => {
    const dialog = await openDialog(replacement.id);
    const version = dialog.locator(`.memory-version[data-memory-id="${replaced.id}"]`);
    expect(await version.getAttribute('data-change')).toBe('superseded');
    expect(await version.locator('.memory-version__content').textContent()).toBe('Standup is at 9:30.');
    expect(await version.locator('.memory-version__meta').textContent()).toContain(
      `${replaced.id} superseded by this memory on`,
    );
    await dialog.locator('.memory-history').scrollIntoViewIfNeeded();
    await screenshot(page, 'h02-memory-history-superseded', { fullPage: false });
    // The superseded memory opens from its link, and its own history is empty.
    await version.getByRole('link', { name: replaced.id }).click();
    await page.waitForURL(`${server.url}/console/memories?memory=${replaced.id}`);
    const opened = page.getByRole('dialog', { name: 'Memory' });
    await opened.locator('.memory-content', { hasText: 'Standup is at 9:30.' }).waitFor();
    await opened.getByTestId('no-history').waitFor();
    await page.keyboard.press('Escape');
  });
});
