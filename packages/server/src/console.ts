import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';

/** The base path of the console. */
export const CONSOLE_PATH = '/console';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

// Only the console's own files run: no inline script, nothing from another origin, no framing (its buttons delete).
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const NOT_BUILT =
  'The console is not built. Run `pnpm build` in the repository (it writes packages/server/console/), then reload.\n';

/** Where `pnpm build` writes the console: `packages/server/console/`, beside `src/` and `dist/`. */
export function consoleDirectory(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../console');
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

function text(context: Context, status: 404 | 503, body: string): Response {
  return context.body(body, status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
}

/**
 * Serves the web console (packages/console, built into `directory`): `index.html` at `/console` and at every path
 * under it (the console routes in the browser), and `/console/assets/*`, whose names carry a content hash and so are
 * cached for good. No credential is needed for these files: the console's API calls carry the key. When the console
 * is not built, `/console` answers 503 saying how to build it. `/` redirects to `/console`.
 */
export function registerConsole(app: Hono, directory: string = consoleDirectory()): void {
  const assets = new Map<string, Uint8Array<ArrayBuffer>>();

  const page = async (context: Context) => {
    let html: Buffer;
    try {
      html = await readFile(path.join(directory, 'index.html'));
    } catch (error) {
      if (isMissing(error)) return text(context, 503, NOT_BUILT);
      throw error;
    }
    return context.body(new Uint8Array(html), 200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      ...SECURITY_HEADERS,
    });
  };

  app.get(`${CONSOLE_PATH}/assets/:name`, async (context) => {
    const name = context.req.param('name');
    const contentType = CONTENT_TYPES[path.extname(name)];
    if (contentType === undefined || !/^[\w-]+(\.[\w-]+)*$/.test(name)) return text(context, 404, 'No such file\n');
    let body = assets.get(name);
    if (body === undefined) {
      try {
        body = new Uint8Array(await readFile(path.join(directory, 'assets', name)));
      } catch (error) {
        if (isMissing(error)) return text(context, 404, 'No such file\n');
        throw error;
      }
      assets.set(name, body);
    }
    return context.body(body, 200, {
      'content-type': contentType,
      'cache-control': 'public, max-age=31536000, immutable',
      ...SECURITY_HEADERS,
    });
  });
  app.get(CONSOLE_PATH, page);
  app.get(`${CONSOLE_PATH}/*`, page);
  // A person who opens the server's address in a browser lands on the console, not on a JSON 404.
  app.get('/', (context) => context.redirect(CONSOLE_PATH, 302));
}
