import { createMemoryClient, type MemoryClient } from '@memory-service/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { collectPageErrors, launchChromium } from './browser.js';
import { type BuiltServer, startBuiltServer } from './built-server.js';

/** What a browser test file drives: the built server, one Chromium tab, and clients of the server for its scope. */
export interface ConsoleTab {
  server: BuiltServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The tab's uncaught exceptions and console.error lines; each test must leave it empty. */
  errors: string[];
  /** A client with the bootstrap API key and the scope. */
  client: MemoryClient;
  /** A client with the admin token and the scope. */
  admin: MemoryClient;
}

/** The scope a test file works in. */
export interface TestScope {
  userId: string;
  projectId: string;
}

/**
 * Starts one real server (the built `memory-service start`) and one Chromium tab for the test file, closes them
 * after it, and fails each test that left an error in the browser console. The returned object is filled in by
 * `beforeAll`: read it from the tests or from a later `beforeAll`.
 */
export function useConsoleTab(
  scope: TestScope,
  {
    clipboard = false,
    clock = false,
  }: {
    /** Let the page read and write the clipboard (Copy buttons). */
    clipboard?: boolean;
    /** Install the page's fake clock, so the tests move time forward instead of waiting. */
    clock?: boolean;
  } = {},
): ConsoleTab {
  const tab = {} as ConsoleTab;
  beforeAll(async () => {
    [tab.server, tab.browser] = await Promise.all([startBuiltServer(), launchChromium()]);
    tab.client = createMemoryClient({ baseUrl: tab.server.url, apiKey: tab.server.apiKey, scope, maxRetries: 0 });
    tab.admin = createMemoryClient({
      baseUrl: tab.server.url,
      adminToken: tab.server.adminToken,
      scope,
      maxRetries: 0,
    });
    tab.context = await tab.browser.newContext({ viewport: { width: 1280, height: 800 } });
    if (clipboard)
      await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tab.server.url });
    tab.page = await tab.context.newPage();
    // Below the test's own 30 s: a wait that never ends fails naming its locator, not as a bare test timeout.
    tab.page.setDefaultTimeout(20_000);
    tab.errors = collectPageErrors(tab.page);
    if (clock) await tab.page.clock.install();
  });
  afterAll(async () => {
    await tab.context?.close();
    await tab.browser?.close();
    await tab.server?.stop();
  });
  afterEach(() => {
    expect(tab.errors, 'errors in the browser console').toEqual([]);
  });
  return tab;
}

/** Takes the expected console lines out of `errors` (a refused request logs one), failing if one is missing. */
export function consumeExpectedErrors(errors: string[], pattern: RegExp): void {
  const index = errors.findIndex((line) => pattern.test(line));
  expect(index, `an error matching ${pattern} in ${JSON.stringify(errors)}`).toBeGreaterThanOrEqual(0);
  for (let i = errors.length - 1; i >= 0; i -= 1) if (pattern.test(errors[i]!)) errors.splice(i, 1);
}

/** Signs in on the sign-in page with the bootstrap key, the admin token when asked, and the scope. */
export async function signIn(
  { page, server }: ConsoleTab,
  scope: TestScope,
  { adminToken = false }: { adminToken?: boolean } = {},
): Promise<void> {
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(server.apiKey);
  if (adminToken) await page.getByLabel('Admin token (optional)').fill(server.adminToken);
  await page.getByLabel('User').fill(scope.userId);
  await page.getByLabel('Project').fill(scope.projectId);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
}

/**
 * Waits until the server has embedded and indexed every memory of the client's scope. Pages read what the server has
 * when they load, and a busy machine slows the background indexer down.
 */
export async function waitForIndexing(client: MemoryClient): Promise<void> {
  await expect
    .poll(
      async () => {
        const { queue } = await client.management.embeddings.observability();
        // `indexPending` (memories waiting for their index job) is this server's additive field.
        return queue.pending + ((queue as { indexPending?: number }).indexPending ?? 0);
      },
      { timeout: 20_000 },
    )
    .toBe(0);
}
