/** The contract's path prefix (Versioning). */
export const API_PREFIX = '/api/sdk/v1';

/** The credential a request carries: the API key, the admin token, none, or an explicit `Authorization` value. */
export type Credential = 'key' | 'admin' | 'none' | { authorization: string };

/** One request of a check. `path` is relative to `/api/sdk/v1` unless it starts with `/api/`. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Serialised as JSON (with `Content-Type: application/json`). */
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  rawBody?: string;
  query?: Record<string, string | number | boolean | undefined>;
  credential?: Credential;
}

/** A response, its body read once: `json` is the parsed body, or undefined when it is not JSON. */
export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** A 429 the client waited out and retried (the errors group checks its shape). */
export interface RateLimitEvent {
  path: string;
  status: number;
  json: unknown;
  retryAfterHeader: string | null;
}

/** Options of the HTTP client. */
export interface HttpClientOptions {
  baseUrl: string;
  apiKey: string;
  adminToken?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Retries of a 429, each after the server's `Retry-After` (capped at 30 s). */
  maxRateLimitRetries?: number;
}

/** Removes a trailing slash and a trailing `/api/sdk/v1` (either form of the base URL works). */
export function normalizeBaseUrl(baseUrl: string): string {
  let url = baseUrl.trim().replace(/\/+$/, '');
  if (url.endsWith(API_PREFIX)) url = url.slice(0, -API_PREFIX.length);
  return url;
}

const wait = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Plain `fetch` with the run's credentials, JSON bodies, 429 retries and a request counter. */
export class HttpClient {
  readonly baseUrl: string;
  requestCount = 0;
  readonly rateLimitEvents: RateLimitEvent[] = [];
  private readonly options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
  }

  /** The absolute URL of a path (relative to `/api/sdk/v1` unless it starts with `/api/`). */
  url(path: string, query?: HttpRequest['query']): string {
    const url = new URL(this.baseUrl + (path.startsWith('/api/') ? path : API_PREFIX + path));
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** The `Authorization` header value of a credential, or undefined for none. */
  authorization(credential: Credential = 'key'): string | undefined {
    if (credential === 'none') return undefined;
    if (credential === 'key') return `Bearer ${this.options.apiKey}`;
    if (credential === 'admin') {
      if (this.options.adminToken === undefined) throw new Error('no admin token was given');
      return `Bearer ${this.options.adminToken}`;
    }
    return credential.authorization;
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const authorization = this.authorization(request.credential);
    if (authorization !== undefined) headers.Authorization = authorization;
    let body: string | undefined;
    if (request.rawBody !== undefined || request.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = request.rawBody ?? JSON.stringify(request.body);
    }
    const doFetch = this.options.fetch ?? fetch;
    const retries = this.options.maxRateLimitRetries ?? 4;
    for (let attempt = 0; ; attempt += 1) {
      this.requestCount += 1;
      const response = await doFetch(this.url(request.path, request.query), {
        method: request.method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (response.status !== 429 || attempt >= retries)
        return { status: response.status, headers: response.headers, text, json };
      const retryAfterHeader = response.headers.get('retry-after');
      this.rateLimitEvents.push({ path: request.path, status: response.status, json, retryAfterHeader });
      const details = (json as { error?: { details?: { retryAfterSeconds?: unknown } } } | undefined)?.error?.details;
      const seconds = Number(details?.retryAfterSeconds ?? retryAfterHeader ?? 1);
      await wait(Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds : 1, 30) * 1000);
    }
  }
}
