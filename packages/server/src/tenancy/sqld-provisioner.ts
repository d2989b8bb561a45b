import type { ProvisionedDatabase, TenantProvisioner } from './provisioner.js';

const ADMIN_TIMEOUT_MS = 10_000;

/** Where the `sqld` provisioner reaches the libSQL server. */
export interface SqldProvisionerOptions {
  /** The admin API (`--admin-listen-addr`), e.g. `http://127.0.0.1:9090`. */
  adminUrl: string;
  /** The HTTP API tenants are served on (`--http-listen-addr`), e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** The fetch used for the admin API (tests may pass their own). */
  fetch?: typeof fetch;
  /** The keyed digest namespace names are made with (`SecretBox.digest`). */
  keyedDigest: (value: string) => string;
}

/**
 * A namespace name for a tenant: one DNS label (lowercase letters, digits, `-`; at most 63 characters), since
 * sqld reads the namespace from the first label of the Host header. Its suffix is a keyed digest of owner and tenant
 * (`keyedDigest`, HMAC under MEMORY_SECRET_KEY): unique per owner and tenant, the same on every server process, and
 * not computable by anyone who knows only the ids (a namespace takes no credential, so its name must not be guessable).
 */
export function namespaceName(ownerId: string, tenantId: string, keyedDigest: (value: string) => string): string {
  const readable = tenantId
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 30)
    .replace(/-$/, '');
  const digest = keyedDigest(`sqld-namespace\u0000${ownerId}\u0000${tenantId}`).slice(0, 24);
  return `${readable || 'tenant'}-${digest}`;
}

/** Creates each tenant's database as a namespace of a libSQL server, through its admin API. */
export class SqldProvisioner implements TenantProvisioner {
  readonly kind = 'sqld' as const;
  private readonly adminUrl: string;
  private readonly url: string;
  private readonly fetch: typeof fetch;
  private readonly keyedDigest: (value: string) => string;

  constructor(options: SqldProvisionerOptions) {
    this.keyedDigest = options.keyedDigest;
    this.adminUrl = options.adminUrl.replace(/\/+$/, '');
    this.url = options.url.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** Creates the namespace (an existing one is reused) and returns the server URL with the namespace as `dbName`. */
  async provision(ownerId: string, tenantId: string): Promise<ProvisionedDatabase> {
    const dbName = namespaceName(ownerId, tenantId, this.keyedDigest);
    let response: Response;
    try {
      response = await this.fetch(`${this.adminUrl}/v1/namespaces/${dbName}/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
      });
    } catch {
      throw new Error('the libSQL admin API did not answer');
    }
    const text = await response.text();
    if (!response.ok && !(response.status === 400 && text.includes('already exists'))) {
      throw new Error(`the libSQL admin API refused to create the namespace (HTTP ${response.status})`);
    }
    return { url: this.url, dbName };
  }
}
