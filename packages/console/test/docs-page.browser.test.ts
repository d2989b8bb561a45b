import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchChromium, screenshot } from './browser.js';
import { type BuiltServer, startBuiltServer } from './built-server.js';

// The server's API reference (`/docs`, Swagger UI) lives beside the console and shares its browser setup: its strict
// Content-Security-Policy must leave the page working offline, as it did without one.
let server: BuiltServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startBuiltServer(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the API reference at /docs in a real browser', () => {
  it('renders every route under its strict CSP, with no violation and no error', async () => {
    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    // Resources that failed to load, by path (the console message alone does not name them).
    const failed: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().startsWith('Failed to load resource'))
        failed.push(new URL(message.location().url).pathname);
    });
    // What the CSP blocked, as the page itself sees it (Chromium also logs each one as a console error).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const response = await page.goto(`${server.url}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    // Opening an operation renders its parameters and responses (more React, more styles).
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    // "Try it out" on /health (the first route, no key needed) calls this origin, which connect-src allows.
    await page.getByRole('button', { name: 'Try it out' }).first().click();
    await page.getByRole('button', { name: 'Execute' }).first().click();
    await page.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    await screenshot(page, 'docs-page');
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    // The browser's own favicon request may 404 (the server has none); nothing the page itself loads may fail.
    expect(failed.filter((pathname) => pathname !== '/favicon.ico')).toEqual([]);
    expect(errors.filter((error) => !error.includes('Failed to load resource'))).toEqual([]);
    await page.close();
  });

  it('cannot be framed by another page', async () => {
    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    // An about:blank page (another origin than the server) that frames /docs.
    await page.setContent(`<iframe id="docs" src="${server.url}/docs"></iframe>`);
    await expect.poll(() => errors.join('\n')).toMatch(/frame-ancestors|Refused to display|X-Frame-Options/i);
    const frame = page.frames().find((each) => each.url().startsWith(`${server.url}/docs`));
    // Blocked: Chromium leaves the frame empty (no Swagger UI in it).
    expect(frame === undefined ? 0 : await frame.locator('.swagger-ui').count()).toBe(0);
    await page.close();
  });
});
