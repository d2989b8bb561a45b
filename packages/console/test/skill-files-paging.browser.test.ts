import type { MemoryClient } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { signIn, useConsoleTab } from './console-tab.js';

// The Skill files page when skills/list pages: files whose text adds up to more than one page holds
// (LIMITS.skillListBytes) are all listed and open, and past 500 files the list says more follow and loads them.
const SCOPE = { userId: 'ada', projectId: 'console-skill-pages' };
const tab = useConsoleTab(SCOPE);
let server: BuiltServer;
let page: Page;
let client: MemoryClient;

/** 12 files of about 100 KB: 1.2 MB of text, more than one 1 MiB page. */
const BIG_FILES = 12;
const BIG_CONTENT_BYTES = 100_000;
/** Enough small files to pass the 500 files the list reads before "Load more". */
const SMALL_FILES = 500;

const bigPath = (index: number) => `skills/big-${String(index).padStart(2, '0')}.md`;
const smallPath = (index: number) => `skills/small-${String(index).padStart(3, '0')}.md`;

function bigContent(index: number): string {
  const heading = `# Big procedure ${index}\n\n`;
  const line = `Step of big procedure ${index}: check the dashboard, then the logs.\n`;
  return heading + line.repeat(Math.ceil((BIG_CONTENT_BYTES - heading.length) / line.length));
}

/** Runs `write` for 0..count-1, a few at a time. */
async function writeAll(count: number, write: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await write(index);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const skillList = () => page.getByRole('list', { name: 'Skill files' });
const loadMore = () => page.getByRole('button', { name: 'Load more skill files' });

beforeAll(() => {
  ({ server, page, client } = tab);
});

async function openSkillFiles(): Promise<void> {
  await page.goto(`${server.url}/console/skill-files`);
  await page.getByRole('heading', { level: 1, name: 'Skill files' }).waitFor();
}

describe('skill files over more than one skills/list page in a real browser', () => {
  it('lists every file when their text exceeds one page, and opens one of the later page', async () => {
    await writeAll(BIG_FILES, (index) => client.skills.upsert({ path: bigPath(index), content: bigContent(index) }));
    // One answer does not hold them all: the byte budget ends the first page.
    const first = await client.skills.list({ limit: LIMITS.skillListLimit.max });
    expect(first.truncated).toBe(true);
    expect(first.count).toBeLessThan(BIG_FILES);
    expect(first.nextCursor).not.toBeNull();

    await signIn(tab, SCOPE);
    await openSkillFiles();
    await expect.poll(() => skillList().getByRole('listitem').count(), { timeout: 15_000 }).toBe(BIG_FILES);
    await page
      .getByRole('status')
      .filter({ hasText: `${BIG_FILES} skill files` })
      .waitFor();
    expect(await page.locator('.results__summary').textContent()).toBe(`${BIG_FILES} skill files`);
    expect(await loadMore().count()).toBe(0);
    expect(await skillList().locator('.skill-row__path').allTextContents()).toEqual(
      Array.from({ length: BIG_FILES }, (_, index) => bigPath(index)),
    );
    await screenshot(page, 'k10-skill-files-over-one-page');

    const last = bigPath(BIG_FILES - 1);
    expect(first.skillFiles.map((file) => file.path)).not.toContain(last);
    await skillList().getByRole('link', { name: last }).click();
    await page.waitForURL(`${server.url}/console/skill-files/${encodeURIComponent(last)}`);
    await page.getByRole('heading', { level: 1, name: `Big procedure ${BIG_FILES - 1}` }).waitFor();
    await expect
      .poll(() => page.locator('.skill-content').textContent())
      .toContain(`Step of big procedure ${BIG_FILES - 1}`);
    await screenshot(page, 'k11-skill-file-of-a-later-page', { fullPage: false });
  });

  it('says more follow past 500 files, and loads them with Load more', async () => {
    await writeAll(SMALL_FILES, (index) =>
      client.skills.upsert({ path: smallPath(index), content: `# Small procedure ${index}\n\nRun step ${index}.` }),
    );
    const total = BIG_FILES + SMALL_FILES;
    await openSkillFiles();
    await expect.poll(() => skillList().getByRole('listitem').count(), { timeout: 15_000 }).toBe(500);
    expect(await page.locator('.results__summary').textContent()).toBe('500 skill files shown, by path: more follow');
    // By path: the big files, then the small ones up to the 500th file.
    const lastShown = smallPath(500 - BIG_FILES - 1);
    expect(await skillList().locator('.skill-row__path').last().textContent()).toBe(lastShown);
    await screenshot(page, 'k12-skill-files-first-500', { fullPage: false });
    await loadMore().scrollIntoViewIfNeeded();
    await screenshot(page, 'k13-skill-files-more-follow', { fullPage: false });

    await loadMore().click();
    await expect.poll(() => skillList().getByRole('listitem').count(), { timeout: 15_000 }).toBe(total);
    expect(await page.locator('.results__summary').textContent()).toBe(`${total} skill files`);
    expect(await loadMore().count()).toBe(0);
    const paths = await skillList().locator('.skill-row__path').allTextContents();
    expect(new Set(paths).size).toBe(total);
    expect(paths.at(-1)).toBe(smallPath(SMALL_FILES - 1));
    await skillList()
      .getByRole('link', { name: smallPath(SMALL_FILES - 1) })
      .scrollIntoViewIfNeeded();
    await screenshot(page, 'k14-skill-files-all-loaded', { fullPage: false });

    // A file past the first 500 opens too: its page reads skills/list on until the file shows up.
    await skillList()
      .getByRole('link', { name: smallPath(SMALL_FILES - 1) })
      .click();
    await page.getByRole('heading', { level: 1, name: `Small procedure ${SMALL_FILES - 1}` }).waitFor();
    await expect.poll(() => page.locator('.skill-content').textContent()).toContain(`Run step ${SMALL_FILES - 1}.`);
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await screenshot(page, 'k15-skill-file-past-500');

    // A path no file has: read to the end of the list, then said plainly.
    await page.goto(`${server.url}/console/skill-files/${encodeURIComponent('skills/zz-missing.md')}`);
    await page.getByText('No skill file at this path in this scope').waitFor();
  }, 120_000);
});
