import type { Memory, MemoryClient } from '@memory-service/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { consumeExpectedErrors, signIn, useConsoleTab } from './console-tab.js';

// Issue 24, part 6 ("See it"), against one real server and one Chromium tab: each memory's dates (when it happened,
// when it was written, relative expressions resolved), the conflicts beside both memories of a pair with the newer
// marked, "superseded by" linking to the memory that replaced it, and the Context preview marking the newer.
const SCOPE = { userId: 'lin', projectId: 'time-e2e' };
const tab = useConsoleTab(SCOPE);
let server: BuiltServer;
let page: Page;
let client: MemoryClient;
const memories: Record<'older' | 'newer' | 'dated' | 'replaced' | 'replacement', Memory> = {} as never;

const OLDER = 'Deploys go out on Wednesdays after the standup.';
const NEWER = 'The team deploys on Fridays now.';
const DATED = 'Yesterday we moved the billing database to Postgres.';

beforeAll(async () => {
  ({ server, page, client } = tab);
  await signIn(tab, SCOPE);
});

function row(id: string) {
  return page.locator(`.memory-row[data-memory-id="${id}"]`);
}

function returnedItem(id: string) {
  return page.locator(`.returned-item[data-memory-id="${id}"]`);
}

async function listAll(limit = 50): Promise<void> {
  await page.getByLabel('Limit').fill(String(limit));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.locator('.results[aria-busy="false"]').waitFor();
}

describe('dates, conflicts and superseded memories in the console', () => {
  it('seeds a reworded update, a dated memory saying "yesterday", and a memory superseded by consolidation', async () => {
    const add = async (content: string, fields: Omit<Parameters<MemoryClient['memories']['add']>[0], 'content'>) =>
      (await client.memories.add({ ...fields, content })).memory;
    memories.older = await add(OLDER, { type: 'fact', occurredAt: '2025-10-06T09:00:00Z' });
    memories.newer = await add(NEWER, { type: 'fact' });
    memories.dated = await add(DATED, { type: 'note', occurredAt: '2025-03-14T10:00:00Z' });
    expect(memories.dated.resolvedDates).toEqual([{ text: 'Yesterday', date: '2025-03-13', precision: 'day' }]);
    // Today's consolidation rule: the same claim with one value changed supersedes the older (decisions only, so
    // the deploy pair stays a conflict).
    memories.replaced = await add('Standup is at 9:30.', { type: 'decision' });
    memories.replacement = await add('Standup is at 10:00.', { type: 'decision' });
    const run = await client.memories.consolidate({ types: ['decision'] });
    expect(run.supersededMemoryIds).toEqual([memories.replaced.id]);
    // Conflicts are found by the indexer after the write: wait until memories/list pairs the deploy memories.
    await expect
      .poll(
        async () => ((await client.memories.list({})).conflicts ?? []).map((pair) => [pair.memoryAId, pair.memoryBId]),
        {
          timeout: 15_000,
        },
      )
      .toContainEqual([memories.older.id, memories.newer.id]);
  });

  it('shows when each memory happened and was written, and resolves "yesterday"', async () => {
    await listAll();
    const older = row(memories.older.id);
    await older.waitFor();
    expect(await older.getByTestId('happened').getAttribute('datetime')).toBe(memories.older.occurredAt);
    expect(await older.getByTestId('written').getAttribute('datetime')).toBe(memories.older.createdAt);
    // Written now, happened now: one date only.
    expect(await row(memories.newer.id).getByTestId('happened').getAttribute('datetime')).toBe(
      memories.newer.occurredAt,
    );
    expect(await row(memories.newer.id).getByTestId('written').count()).toBe(0);
    const dated = row(memories.dated.id);
    expect(await dated.getByTestId('resolved-date').textContent()).toBe('Yesterday → 2025-03-13');
    expect(await dated.getByTestId('happened').getAttribute('datetime')).toBe(memories.dated.occurredAt);
  });

  it('shows the conflict beside both memories, the newer and the older marked, with the explanation', async () => {
    const olderConflict = row(memories.older.id).locator(`.memory-conflict[data-conflict-with="${memories.newer.id}"]`);
    const newerConflict = row(memories.newer.id).locator(`.memory-conflict[data-conflict-with="${memories.older.id}"]`);
    expect(await olderConflict.locator('.badge').textContent()).toBe('older');
    expect(await olderConflict.locator('.memory-conflict__line').textContent()).toBe(
      `older Conflicts with “${NEWER}”, which is newer: this one is the older.`,
    );
    expect(await newerConflict.locator('.badge').textContent()).toBe('newer');
    expect(await newerConflict.locator('.memory-conflict__line').textContent()).toBe(
      `newer Conflicts with “${OLDER}”, which is older: this one is the newer.`,
    );
    for (const conflict of [olderConflict, newerConflict]) {
      expect(await conflict.locator('.memory-conflict__why').textContent()).toContain(
        `${memories.newer.id} is the newer one`,
      );
    }
    // A memory in no conflict shows none.
    expect(await row(memories.dated.id).locator('.memory-conflict').count()).toBe(0);
    await screenshot(page, 't01-memories-dates-conflicts');

    // The other memory of the pair opens from the conflict, with every field and the same conflict in its dialog.
    await olderConflict.getByRole('link').click();
    await page.waitForURL(/\/console\/memories\?memory=/);
    const dialog = page.getByRole('dialog', { name: 'Memory' });
    await dialog.locator('.memory-content', { hasText: NEWER }).waitFor();
    expect(await dialog.locator('.memory-conflict .badge').textContent()).toBe('newer');
    expect(await dialog.locator('dt', { hasText: /^occurredAt$/ }).count()).toBe(1);
    await screenshot(page, 't02-memory-dialog-conflict', { fullPage: false });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(`${server.url}/console/memories`);
  });

  it('says what superseded a memory and opens it from the link', async () => {
    const replaced = row(memories.replaced.id);
    expect(await replaced.getByTestId('superseded-by').textContent()).toBe(`superseded by ${memories.replacement.id}`);
    expect(await row(memories.replacement.id).getByTestId('superseded-by').count()).toBe(0);
    await replaced.getByTestId('superseded-by').getByRole('link').click();
    await page.waitForURL(`${server.url}/console/memories?memory=${memories.replacement.id}`);
    const dialog = page.getByRole('dialog', { name: 'Memory' });
    await dialog.locator('.memory-content', { hasText: 'Standup is at 10:00.' }).waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.url}/console/memories`);

    // A link to a memory the scope does not see (memories/{id} answers 404) says so.
    await page.goto(`${server.url}/console/memories?memory=no-such-memory`);
    await page.getByText('No memory no-such-memory in this scope').waitFor();
    // The browser logs the 404 of memories/{id} as a failed load.
    consumeExpectedErrors(tab.errors, /404/);
  });

  it('marks the newer of a conflicting pair in the Context preview, with dates, explanation and suggestion', async () => {
    await page.goto(`${server.url}/console/context?query=when+do+we+deploy%3F&strategy=hybrid&limit=10`);
    await page.locator('.results[aria-busy="false"] .returned-items').waitFor();
    const newer = returnedItem(memories.newer.id);
    const older = returnedItem(memories.older.id);
    expect(await newer.locator('.returned-item__conflict .badge').textContent()).toBe('newer');
    expect(await newer.locator('.returned-item__conflict').textContent()).toBe(
      `newer contradicts the older “${OLDER}” and is served above it`,
    );
    expect(await older.locator('.returned-item__conflict .badge').textContent()).toBe('older');
    expect(await older.locator('.returned-item__conflict').textContent()).toBe(
      `older superseded in practice by the newer “${NEWER}”`,
    );
    // The newer is served first.
    const order = await page
      .locator('.returned-item[data-memory-id]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-memory-id')));
    expect(order.indexOf(memories.newer.id)).toBeLessThan(order.indexOf(memories.older.id));
    // Every returned memory carries its dates.
    const returned = await page.locator('.returned-item[data-memory-id]').count();
    expect(await page.locator('.returned-item[data-memory-id] [data-testid="happened"]').count()).toBe(returned);
    expect(await older.getByTestId('written').getAttribute('datetime')).toBe(memories.older.createdAt);

    const conflict = page.locator(`.returned-item[data-conflict="${memories.older.id}|${memories.newer.id}"]`);
    expect(await conflict.locator('.returned-item__content').textContent()).toBe(
      `older “${OLDER}” contradicts newer “${NEWER}”`,
    );
    expect(await conflict.locator('.returned-item__explanation').textContent()).toContain(
      `${memories.newer.id} is the newer one`,
    );
    expect(await conflict.locator('.returned-item__suggestion').textContent()).toContain(
      `Suggestion: Treat ${memories.newer.id} as current`,
    );
    await screenshot(page, 't03-context-newer-marked');
  });

  it('stays usable with 100 memories: no sideways scrolling, rows of bounded height', async () => {
    const batch = Array.from({ length: 95 }, (_, index) => ({
      content: `Inventory item ${index + 1}: shelf ${String.fromCharCode(65 + (index % 26))}${index} holds ${['cables', 'adapters', 'manuals', 'screws', 'labels'][index % 5]} for the ${['lab', 'office', 'warehouse'][index % 3]} team.`,
      type: 'note' as const,
    }));
    for (const memory of batch) await client.memories.add(memory);
    await page.goto(`${server.url}/console/memories`);
    await listAll(100);
    await expect.poll(() => page.locator('.memory-row').count()).toBe(100);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    const heights = await page.locator('.memory-row').evaluateAll((rows) => rows.map((item) => item.clientHeight));
    expect(Math.max(...heights)).toBeLessThan(260);
    await row(memories.older.id).locator('.memory-conflict').waitFor();
    await screenshot(page, 't04-memories-100');
    // A memory with many conflicts shows three and folds the rest (the write-time detector pairs some of these
    // look-alike rows today; without such a row this shows the deploy pair).
    const crowded = page.locator('.memory-conflicts__more').first();
    await ((await crowded.count()) > 0 ? crowded : row(memories.older.id)).scrollIntoViewIfNeeded();
    await screenshot(page, 't04b-memories-100-viewport', { fullPage: false });

    await page.setViewportSize({ width: 390, height: 844 });
    await row(memories.older.id).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 't05-phone-conflict', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
