import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { registerConsole } from '../src/console.js';

const built = mkdtempSync(path.join(tmpdir(), 'memory-console-route-'));
mkdirSync(path.join(built, 'assets'));
writeFileSync(path.join(built, 'index.html'), '<!doctype html><title>console</title>');
writeFileSync(path.join(built, 'assets', 'console-ABC123.js'), 'export {};');
writeFileSync(path.join(built, 'secret.txt'), 'outside assets');
const notBuilt = mkdtempSync(path.join(tmpdir(), 'memory-console-route-empty-'));
afterAll(() => {
  rmSync(built, { recursive: true, force: true });
  rmSync(notBuilt, { recursive: true, force: true });
});

function appServing(directory: string): Hono {
  const app = new Hono();
  registerConsole(app, directory);
  return app;
}

describe('the /console route', () => {
  it('answers index.html at /console and every path under it, with a CSP that allows only its own files', async () => {
    const app = appServing(built);
    for (const route of ['/console', '/console/', '/console/memories', '/console/sessions/abc']) {
      const response = await app.request(route);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self';/);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<title>console</title>');
    }
  });

  it('serves hashed assets for good, and nothing outside assets/', async () => {
    const app = appServing(built);
    const asset = await app.request('/console/assets/console-ABC123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('export {};');
    for (const route of [
      '/console/assets/missing.js',
      '/console/assets/%2e%2e%2fsecret.txt',
      '/console/assets/x.exe',
    ]) {
      expect((await app.request(route)).status, route).toBe(404);
    }
  });

  it('says how to build the console when it is not built', async () => {
    const response = await appServing(notBuilt).request('/console');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('pnpm build');
  });
});

describe('the server root', () => {
  it('sends a browser that opens the server address to the console', async () => {
    const response = await appServing(built).request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/console');
  });
});
