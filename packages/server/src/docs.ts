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

/** Every answer under `/docs` and the OpenAPI document: never sniffed into another type. */
const NO_SNIFF = { 'x-content-type-options': 'nosniff' };

/**
 * The page runs only its own files, so that no injected script runs beside the key a visitor types into "Try it
 * out": Swagger UI's bundle and `init.js`, no inline script; its stylesheet, whose icons are `data:` images; requests
 * to this origin only (the document, "Try it out"); and no framing, so another site cannot overlay it. React sets
 * styles through the DOM, which `style-src` does not restrict.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  ...NO_SNIFF,
};

/**
 * Serves the OpenAPI document at `GET /api/sdk/v1/openapi.json` and renders it at `/docs` with Swagger UI
 * from the `swagger-ui-dist` package, served locally (no CDN).
 */
export function registerDocs(app: Hono): void {
  const document = JSON.stringify(openApiDocument());
  const cache = new Map<string, Buffer>();
  app.get(
    `${API_PREFIX}/openapi.json`,
    () => new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8', ...NO_SNIFF } }),
  );
  app.get('/docs', (context) => context.html(DOCS_HTML, 200, PAGE_HEADERS));
  app.get(
    '/docs/init.js',
    () => new Response(INIT_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', ...NO_SNIFF } }),
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
      headers: {
        'content-type': ASSETS[name as keyof typeof ASSETS],
        'cache-control': 'public, max-age=86400',
        ...NO_SNIFF,
      },
    });
  });
}
