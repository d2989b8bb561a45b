import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`), or the one CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Where the tests write their screenshots (gitignored; CI keeps the folder). */
export const SCREENSHOT_DIRECTORY = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../test-results/screenshots',
);

/** Launches Chromium headless, or fails saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}. Install Debian's (as root: apt-get update && apt-get install -y chromium) ` +
        'or set CHROMIUM_PATH to a Chromium or Chrome binary. The browser tests never download a browser.',
    );
  }
  // --no-sandbox: CI and the dev machines run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}

/** Collects what would show as errors in the browser's console: uncaught exceptions and console.error lines. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return errors;
}

/**
 * Writes `<name>.png` into the screenshot folder: the whole page, or only the viewport (`fullPage: false`) while a
 * modal dialog is open, whose backdrop covers the viewport only.
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIRECTORY, `${name}.png`), fullPage });
}
