import { randomBytes } from 'node:crypto';
import type { Credential, HttpClient, HttpRequest, HttpResponse } from './http.js';

/** A request scope (Scope model). */
export interface Scope {
  tenantId?: string;
  userId?: string;
  projectId?: string;
}

/**
 * Where a run writes: two tenants of its own (the second for the isolation checks), two users and two projects
 * inside them, all named after the run id, so that a run never touches records it did not create.
 */
export interface Namespace {
  runId: string;
  tenantId: string;
  otherTenantId: string;
  userId: string;
  otherUserId: string;
  projectId: string;
  otherProjectId: string;
}

/** A fresh namespace: `conformance-<UTC time>-<random>` tenants (valid tenant ids on any reading of the contract). */
export function createNamespace(prefix = 'conformance'): Namespace {
  const time = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const runId = `${time}-${randomBytes(3).toString('hex')}`;
  return {
    runId,
    tenantId: `${prefix}-${runId}`,
    otherTenantId: `${prefix}-${runId}-b`,
    userId: `${prefix}-user-a`,
    otherUserId: `${prefix}-user-b`,
    projectId: `${prefix}-project-a`,
    otherProjectId: `${prefix}-project-b`,
  };
}

/** Everything a run wrote, so that cleanup can remove it. */
export class WrittenRecords {
  /** Scopes memories were written in (bulk-forget `all` and vacuum run in each). */
  readonly memoryScopes = new Map<string, Scope>();
  readonly skillFiles = new Map<string, { scope: Scope; path: string }>();
  readonly sessions = new Map<string, { scope: Scope; sessionId: string }>();
  /** API keys created with the admin token, not yet revoked. */
  readonly keyIds = new Set<string>();
  /** Tenant mappings the run created (disabled at the end). */
  readonly tenantIds = new Set<string>();

  memoryScope(scope: Scope): void {
    this.memoryScopes.set(JSON.stringify(scope), scope);
  }

  skillFile(scope: Scope, path: string): void {
    this.skillFiles.set(JSON.stringify([scope, path]), { scope, path });
  }

  session(scope: Scope, sessionId: string): void {
    this.sessions.set(sessionId, { scope, sessionId });
  }
}

const MEMORY_WRITES = new Set(['/memories/add', '/memories/consolidate']);
const SKILL_WRITES = new Set(['/skills/files/upsert', '/skills/files/promote']);

/** What the checks of every group share: the HTTP client, the namespace and the record of writes. */
export class RunEnvironment {
  readonly written = new WrittenRecords();

  constructor(
    readonly http: HttpClient,
    readonly namespace: Namespace,
    readonly hasAdminToken: boolean,
    readonly fetchImplementation?: typeof fetch,
  ) {}

  /** The run's tenant, plus the given scope fields. */
  scope(extra: Scope = {}): Scope {
    return { tenantId: this.namespace.tenantId, ...extra };
  }

  /** The run's tenant as GET query parameters, plus the given ones. */
  query(
    extra: Record<string, string | number | boolean | undefined> = {},
  ): Record<string, string | number | boolean | undefined> {
    return { tenantId: this.namespace.tenantId, ...extra };
  }

  request(request: HttpRequest): Promise<HttpResponse> {
    return this.http.request(request);
  }

  /** A POST with a JSON body; writes are recorded for cleanup before they are sent. */
  async post(path: string, body: Record<string, unknown>, credential: Credential = 'key'): Promise<HttpResponse> {
    const scope = (body.scope ?? {}) as Scope;
    if (MEMORY_WRITES.has(path)) this.written.memoryScope(scope);
    const response = await this.http.request({ method: 'POST', path, body, credential });
    const succeeded = response.status >= 200 && response.status < 300;
    if (succeeded && SKILL_WRITES.has(path) && typeof body.path === 'string') this.written.skillFile(scope, body.path);
    if (path === '/sessions/start') {
      const sessionId = (response.json as { data?: { sessionId?: unknown } } | undefined)?.data?.sessionId;
      if (typeof sessionId === 'string') this.written.session(scope, sessionId);
    }
    return response;
  }

  get(path: string, query: HttpRequest['query'] = {}, credential: Credential = 'key'): Promise<HttpResponse> {
    return this.http.request({ method: 'GET', path, query, credential });
  }
}
