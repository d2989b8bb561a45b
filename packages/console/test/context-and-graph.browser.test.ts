import { formatMemoryContext } from '@memory-service/ai-middleware/format';
import type { MemoryClient } from '@memory-service/client';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import type { BuiltServer } from './built-server.js';
import { consumeExpectedErrors, signIn, useConsoleTab, waitForIndexing } from './console-tab.js';

// The Context preview and Graph pages against one real server and one Chromium tab, as in console.browser.test.ts.
const SCOPE = { userId: 'grace', projectId: 'graph-e2e' };
const tab = useConsoleTab(SCOPE, { clipboard: true });
let server: BuiltServer;
let page: Page;
let client: MemoryClient;
const ids: Record<'dark' | 'light' | 'theme' | 'vim', string> = { dark: '', light: '', theme: '', vim: '' };

/** The retrieval the picture and the preview ask for: hybrid, two hops. */
const RETRIEVAL = { strategy: 'hybrid', graphDepth: 2 } as const;

/**
 * Memories that share tags and a category, so graph expansion reaches some and two contradict; then the rollout is
 * moved to canary the way an operator would: shadow, enough measured calls for the quality gate, then canary.
 */
async function seed(): Promise<void> {
  const add = async (content: string, fields: Omit<Parameters<MemoryClient['memories']['add']>[0], 'content'>) =>
    (await client.memories.add({ ...fields, content })).memory.id;
  // Notes: a conflicting pair stays side by side (two facts would be settled at write time, the older superseded).
  ids.dark = await add('The user prefers dark mode', { type: 'note', category: 'preferences', tags: ['ui'] });
  ids.light = await add('The user prefers light mode', { type: 'note', category: 'preferences', tags: ['ui'] });
  ids.theme = await add('The editor uses the Solarized theme', { type: 'fact', tags: ['ui', 'editor'] });
  ids.vim = await add('Keyboard shortcuts follow Vim bindings in the editor', { type: 'note', tags: ['editor'] });
  await add('Always answer in British English', { type: 'rule' });
  // Every vector is stored before the gate's window opens: a hybrid call made while the indexer (slow on a busy
  // machine) still works falls back to lexical, and the gate counts that against canary.
  await waitForIndexing(client);
  await client.graph.rollout.set({ mode: 'shadow' });
  // The graph links and the vectors are written after each add: wait until expansion finds what it should.
  await expect
    .poll(async () => (await client.context.get({ query: 'dark mode', ...RETRIEVAL })).trace.graphCandidates, {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(2);
  const { qualityGate } = await client.graph.rollout.get();
  for (let call = 0; call < qualityGate.thresholds.minShadowExecutionsForCanary; call += 1) {
    await client.context.get({ query: 'dark mode', ...RETRIEVAL });
  }
  await client.graph.rollout.set({ mode: 'canary' });
}

beforeAll(async () => {
  ({ server, page, client } = tab);
  await signIn(tab, SCOPE);
});

const systemText = () => page.getByLabel('System message text');

async function preview(): Promise<void> {
  await page.getByRole('button', { name: 'Preview context' }).click();
  await page.locator('.results[aria-busy="false"]').waitFor();
}

function graphNode(id: string) {
  return page.locator(`.graph-node[data-node-id="${id}"]`);
}

async function pictureDrawn(): Promise<void> {
  await page.locator('.graph-result[aria-busy="false"] .graph-picture__svg').waitFor();
}

describe('Context preview and Graph in a real browser', () => {
  it('gets a graph to show: linked memories, a contradiction, and the rollout moved to canary', async () => {
    await seed();
    const { rollout, qualityGate } = await client.graph.rollout.get();
    expect({ mode: rollout.mode, gate: qualityGate.status }).toEqual({ mode: 'canary', gate: 'pass' });
  });

  it('previews the context exactly as the middleware formats it, with the retrieval trace', async () => {
    await page
      .getByRole('navigation', { name: 'Console pages' })
      .getByRole('link', { name: 'Context preview' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Context preview' }).waitFor();
    await page.getByText('Type a query to see what the model would see').waitFor();
    await screenshot(page, 'context-01-empty');

    await page.getByLabel('Query').fill('dark mode');
    await page.getByLabel('Strategy').selectOption('hybrid');
    await page.getByLabel('Graph depth').selectOption('2');
    await preview();
    const text = await systemText().textContent();
    expect(text).toContain('Rules (always follow these):');
    expect(text).toContain(`id ${ids.dark}] The user prefers dark mode #ui [CONFLICT`);
    expect(text).toContain('The user prefers light mode');
    expect(text).toContain('Conflicting memories');
    // The same formatter over the same bundle: the page shows what the middleware would inject, byte for byte.
    const bundle = await client.context.get({ query: 'dark mode', limit: 5, mode: 'all', ...RETRIEVAL });
    expect(text).toBe(formatMemoryContext(bundle, { maxContextTokens: 2000 }));
    expect(await page.getByTestId('token-estimate').textContent()).toContain(`≈ ${Math.ceil(text!.length / 4)} tokens`);

    const trace = page.getByRole('region', { name: 'Retrieval trace' });
    expect(await trace.textContent()).toMatch(/requested hybrid · applied hybrid/);
    expect(await trace.textContent()).toMatch(/canary: expansion is served/);
    const expanded = page.locator(`.returned-item[data-memory-id="${ids.theme}"]`);
    expect(await expanded.textContent()).toMatch(/source graph_expansion/);
    expect(await expanded.textContent()).toMatch(/via ui \(has_topic, 1 hop, confidence 1\.00\)/);
    expect(await page.locator(`.returned-item[data-memory-id="${ids.dark}"]`).textContent()).toMatch(
      /source (hybrid|lexical)/,
    );
    expect(await page.getByRole('region', { name: 'Returned items' }).textContent()).toContain('contradicts');

    await page.getByRole('button', { name: 'Copy text' }).click();
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await screenshot(page, 'context-02-preview');
  });

  it('trims to the token budget as the middleware does, and says what it dropped', async () => {
    await page.getByLabel('Token budget').fill('100');
    await preview();
    await page.getByText(/dropped to fit/).waitFor();
    const text = (await systemText().textContent()) ?? '';
    expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(100);
    expect(text).toContain('Always answer in British English');
    expect(await page.getByText('dropped by the budget').count()).toBeGreaterThan(0);
    expect(page.url()).toContain('maxContextTokens=100');
    await screenshot(page, 'context-03-budget');
  });

  it('draws the neighbourhood of a memory: nodes, typed edges, expansion paths, rollout and quality gate', async () => {
    await page.locator(`.returned-item[data-memory-id="${ids.dark}"]`).getByRole('link', { name: 'Graph' }).click();
    await page.getByRole('heading', { level: 1, name: 'Graph' }).waitFor();
    await pictureDrawn();
    expect(await page.locator('.graph-picture__svg').getAttribute('data-layout')).toBe('radial');
    for (const id of [`memory:${ids.dark}`, `memory:${ids.light}`, `memory:${ids.theme}`, `memory:${ids.vim}`]) {
      await graphNode(id).waitFor();
    }
    await graphNode('topic:ui').waitFor();
    await graphNode('topic:editor').waitFor();
    await graphNode('category:preferences').waitFor();
    const edgeTypes = await page
      .locator('.graph-picture .graph-edge')
      .evaluateAll((edges) => edges.map((edge) => edge.getAttribute('data-edge-type')));
    expect(new Set(edgeTypes)).toEqual(new Set(['contradicts', 'has_topic', 'in_category']));
    expect(await page.getByRole('region', { name: 'Legend' }).textContent()).toContain('the two memories disagree');
    expect(await page.getByTestId('rollout-mode').textContent()).toBe('canary');
    expect(await page.getByTestId('quality-gate').textContent()).toBe('pass');
    await page.getByText('The picture as a list').click();
    await screenshot(page, 'graph-01-memory');
  });

  it('is keyboard reachable: Enter on a node opens the memory, and centres the picture on a topic', async () => {
    await graphNode(`memory:${ids.theme}`).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Memory in the graph' });
    await dialog.getByText('reached by graph expansion').waitFor();
    await dialog.getByText('The editor uses the Solarized theme').first().waitFor();
    await screenshot(page, 'graph-02-memory-dialog', { fullPage: false });
    await page.keyboard.press('Escape');

    await graphNode('topic:editor').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/[?&]node=editor&kind=topic/);
    // The old picture stays until the new one lands: wait for the new centre.
    await page.locator('.graph-node--centre[data-node-id="topic:editor"]').waitFor();
    await graphNode(`memory:${ids.vim}`).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: /^Around \W?editor\W?$/ }).count()).toBe(1);
    await screenshot(page, 'graph-03-topic');
  });

  it('says when a memory is not found, however old the memories of the scope', async () => {
    await page.goto(`${server.url}/console/graph?memory=no-such-memory`);
    await page.getByText('No memory no-such-memory in this scope').waitFor();
    // The browser logs the 404 of memories/{id} that told the page so.
    await expect.poll(() => tab.errors.some((line) => /404/.test(line))).toBe(true);
    consumeExpectedErrors(tab.errors, /404/);
  });

  it('stays readable on a phone: rows instead of rings, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/console/graph?memory=${ids.dark}`);
    await pictureDrawn();
    expect(await page.locator('.graph-picture__svg').getAttribute('data-layout')).toBe('rows');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'graph-04-phone');

    await page.goto(`${server.url}/console/context?query=dark+mode&strategy=hybrid&graphDepth=2`);
    await systemText().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'context-04-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
