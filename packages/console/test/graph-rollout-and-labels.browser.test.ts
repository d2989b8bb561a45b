import type { MemoryClient } from '@memory-service/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { consumeExpectedErrors, signIn, useConsoleTab, waitForIndexing } from './console-tab.js';

// The Graph page for an operator: the rollout and its gate in plain words with a control to move the mode, and a
// picture whose labels (the bold centre's included) stay inside it at desktop and phone widths.
const SCOPE = { userId: 'olu', projectId: 'rollout-e2e' };
const tab = useConsoleTab(SCOPE);
let server: BuiltServer;
let page: Page;
let client: MemoryClient;
let centreId: string;

beforeAll(async () => {
  ({ server, page, client } = tab);
  await signIn(tab, SCOPE);
});

async function seed(): Promise<void> {
  const add = async (content: string, tags: string[]) => (await client.memories.add({ content, tags })).memory.id;
  // A long centre label, and neighbours on every side of it.
  centreId = await add(
    'Quarterly infrastructure planning happens in the first week of every quarter with the whole platform team',
    ['planning', 'platform'],
  );
  await add('The platform team owns the deployment pipeline and the staging clusters', ['platform']);
  await add('Planning documents live in the shared engineering drive under roadmap', ['planning']);
  await add('Capacity reviews feed the quarterly infrastructure planning meeting', ['planning', 'capacity']);
  await waitForIndexing(client);
}

async function openGraph(): Promise<void> {
  await page.goto(`${server.url}/console/graph?memory=${centreId}`);
  await page.locator('.graph-result[aria-busy="false"] .graph-picture__svg').waitFor();
  await page.getByRole('heading', { level: 2, name: 'Rollout and quality gate' }).waitFor();
}

/** Each node label whose drawn box sticks out of the picture's box (both on screen), with how far. */
async function labelsOutside(): Promise<string[]> {
  return page.locator('.graph-picture__svg').evaluate((svg) => {
    const frame = svg.getBoundingClientRect();
    return [...svg.querySelectorAll<SVGTextElement>('.graph-node__label')].flatMap((label) => {
      const box = label.getBoundingClientRect();
      const out = Math.max(
        frame.left - box.left,
        frame.top - box.top,
        box.right - frame.right,
        box.bottom - frame.bottom,
      );
      return out > 0.5 ? [`${label.textContent} sticks out by ${out.toFixed(1)} px`] : [];
    });
  });
}

describe('the rollout in plain words, with a control', () => {
  it('says why the gate holds in words a person reads, keeping each code beside them', async () => {
    await seed();
    await openGraph();
    expect(await page.getByTestId('rollout-mode').textContent()).toBe('off');
    const panel = page.getByRole('region', { name: 'Rollout and quality gate' });
    const reasons = await panel.locator('.reason-list li').allTextContents();
    expect(reasons.length).toBeGreaterThan(0);
    // A fresh scope has measured nothing: the first reason says so in words, then names its code.
    expect(reasons).toContainEqual(expect.stringContaining('Not enough hybrid searches yet'));
    for (const reason of reasons) expect(reason).toMatch(/^[A-Z][^_]+\. [A-Z_]+$/);
    await screenshot(page, 'r01-rollout-plain-words', { fullPage: false });
  });

  it('moves the rollout to shadow from the panel', async () => {
    const control = page.getByRole('form', { name: 'Move the rollout' });
    expect(await control.getByLabel('New mode').inputValue()).toBe('shadow');
    await control.getByRole('button', { name: 'Set mode' }).click();
    await expect.poll(() => page.getByTestId('rollout-mode').textContent()).toBe('shadow');
    expect((await client.graph.rollout.get()).rollout.mode).toBe('shadow');
  });

  it('says in words why canary is refused while the gate blocks it, and leaves the mode as it was', async () => {
    const control = page.getByRole('form', { name: 'Move the rollout' });
    await control.getByLabel('New mode').selectOption('canary');
    await control.getByRole('button', { name: 'Set mode' }).click();
    const refused = control.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('CANARY_ROLLOUT_BLOCKED');
    expect(await refused.textContent()).toContain('The rollout did not move');
    // The server's words, without the route the client adds for developers' logs.
    expect(await refused.locator('.error-panel__message').textContent()).toMatch(/^[^/()]+$/);
    await expect.poll(() => tab.errors.some((line) => /409/.test(line))).toBe(true);
    consumeExpectedErrors(tab.errors, /409/);
    expect((await client.graph.rollout.get()).rollout.mode).toBe('shadow');
    await control.scrollIntoViewIfNeeded();
    await screenshot(page, 'r02-rollout-canary-refused', { fullPage: false });
  });
});

describe('graph labels stay inside the picture', () => {
  it('at a desktop width', async () => {
    await openGraph();
    expect(await page.locator('.graph-picture__svg').getAttribute('data-layout')).toBe('radial');
    expect(await labelsOutside()).toEqual([]);
    await screenshot(page, 'r03-graph-labels-desktop', { fullPage: false });
  });

  it('on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openGraph();
    expect(await page.locator('.graph-picture__svg').getAttribute('data-layout')).toBe('rows');
    expect(await labelsOutside()).toEqual([]);
    await page.locator('.graph-picture').scrollIntoViewIfNeeded();
    await screenshot(page, 'r04-graph-labels-phone', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
