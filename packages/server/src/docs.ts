import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { API_PREFIX, openApiDocument } from '@memory-service/contract';
import type { Hono } from 'hono';

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

function assetDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Memory service API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: '${API_PREFIX}/openapi.json', dom_id: '#docs', deepLinking: true });`;

/**
 * Serves the OpenAPI document at `GET /api/sdk/v1/openapi.json` and renders it at `/docs` with Swagger UI
 * from the `swagger-ui-dist` package, served locally (no CDN).
 */
export function registerDocs(app: Hono): void {
  const document = JSON.stringify(openApiDocument());
  const cache = new Map<string, Buffer>();
  app.get(
    `${API_PREFIX}/openapi.json`,
    () => new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
  );
  app.get('/docs', (context) => context.html(DOCS_HTML));
  app.get(
    '/docs/init.js',
    () => new Response(INIT_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }),
  );
  app.get('/docs/assets/:name', async (context) => {
    const name = context.req.param('name');
    if (!Object.hasOwn(ASSETS, name)) return context.notFound();
    let body = cache.get(name);
    if (body === undefined) {
      body = await readFile(path.join(assetDirectory(), name));
      cache.set(name, body);
    }
    return new Response(new Uint8Array(body), {
      headers: { 'content-type': ASSETS[name as keyof typeof ASSETS], 'cache-control': 'public, max-age=86400' },
    });
  });
}
