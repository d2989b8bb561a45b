import { operationList } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('API documentation', () => {
  it('serves the OpenAPI 3.1 document with every path of the contract, without auth', async () => {
    const response = await server.app.request('/api/sdk/v1/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    for (const operation of operationList) {
      expect(
        document.paths[`/api/sdk/v1${operation.path}`]?.[operation.method.toLowerCase()],
        operation.id,
      ).toBeDefined();
    }
  });

  it('renders /docs with Swagger UI served locally, no CDN', async () => {
    const page = await server.app.request('/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/init.js']),
    );
    for (const asset of assets) {
      const response = await server.app.request(asset);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(50);
    }
    const init = await (await server.app.request('/docs/init.js')).text();
    expect(init).toContain('/api/sdk/v1/openapi.json');
    expect((await server.app.request('/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });
});

describe('the /docs page headers', () => {
  it('has a strict CSP that allows only its own files, cannot be framed, and is never sniffed', async () => {
    const page = await server.app.request('/docs');
    const policy = page.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      policy.split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('style-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // The policy holds because the page has nothing inline: every script and stylesheet is a file of its own.
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/);
    for (const asset of ['/docs/init.js', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']) {
      const response = await server.app.request(asset);
      expect(response.headers.get('x-content-type-options'), asset).toBe('nosniff');
    }
    const document = await server.app.request('/api/sdk/v1/openapi.json');
    expect(document.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the CommonJS build', () => {
  it('serves the docs assets too (import.meta.url is shimmed)', async () => {
    const { createRequire } = await import('node:module');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const built = createRequire(import.meta.url)('../dist/index.cjs') as typeof import('../src/index.js');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-cjs-'));
    const services = await built.createServices(built.loadConfig({}, { dataDir, logLevel: 'silent' }));
    try {
      const response = await built.createApp(services).request('/docs/assets/swagger-ui.css');
      expect(response.status).toBe(200);
    } finally {
      await built.closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
