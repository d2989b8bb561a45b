import { LRUCache } from 'lru-cache';
import { ApiError } from '../api-error.js';
import type { ServerConfig } from '../config.js';
import { describeError } from '../describe-error.js';
import type { Logger } from '../logger.js';
import { outsideRequestScope } from '../request-scope.js';
import type { ControlStore } from '../store/control-store.js';
import { Database, type DatabaseLocation } from '../store/database.js';
import { migrate } from '../store/migrate.js';
import { tenantMigrations } from '../store/migrations/tenant.js';
import { tenantKey } from '../store/tenant-key.js';
import type { TenantRegistry, TenantRow } from '../store/tenant-registry.js';
import { resolveDatabaseUrl } from './data-dir-urls.js';
import { mappingLocation } from './database-location.js';
import { EmptyTenants } from './empty-tenants.js';
import { namespaceFetch } from './host-routed-fetch.js';
import type { ProvisionedDatabase, TenantProvisioner } from './provisioner.js';
import type { SecretBox } from './secrets.js';
import { TenantDatabase } from './tenant-database.js';

export { TenantDatabase } from './tenant-database.js';

/** What a request holds while it runs: an open handle, and the release that lets its retirement go on. */
export interface TenantLease {
  handle: TenantDatabase;
  release(): void;
}

/** Takes a lease on a handle as soon as it is open; null when it was retired first. */
function takeLease(entry: Promise<TenantDatabase>): Promise<TenantLease | null> {
  return entry.then((handle) => {
    const release = handle.tryAcquire();
    return release === null ? null : { handle, release };
  });
}

/** How many times a lease is tried when the handle found was retired in between (tenant churn): then SERVER_BUSY. */
const LEASE_ATTEMPTS = 3;

/**
 * What runs beside an open database: started when it opens, woken when it queued index jobs, stopped before it
 * closes (the indexer).
 */
export interface DatabaseLifecycle {
  opened(handle: TenantDatabase): void;
  jobsQueued(handle: TenantDatabase): void;
  closing(handle: TenantDatabase): Promise<void>;
}

const NO_LIFECYCLE: DatabaseLifecycle = {
  opened: () => undefined,
  jobsQueued: () => undefined,
  closing: async () => undefined,
};

/** What the open-database cache has done since the server started (the operator's metrics read it). */
export interface TenantCacheStats {
  /** Lookups that found the database open (or opening, for a request that arrived while it opened). */
  hits: number;
  /** Lookups that had to open it. */
  misses: number;
  /** Databases closed to make room for another (MEMORY_TENANT_CACHE_SIZE). */
  evictions: number;
  /** Databases open now. */
  open: number;
}

/** How a request may resolve its tenant. */
export interface ResolveOptions {
  /**
   * Whether an unknown tenantId may be provisioned (writes that create records). When false (reads, see
   * `createsTenant` in the operations table) an unknown tenant is answered by an empty in-memory stand-in and
   * nothing is created.
   */
  createTenant?: boolean;
}

/** What a `TenantResolver` is built from. */
export interface TenantResolverOptions {
  config: ServerConfig;
  control: ControlStore;
  registry: TenantRegistry;
  /** Creates tenant databases (management's `provision` upserts use it too). */
  provisioner: TenantProvisioner;
  secrets: SecretBox;
  logger: Logger;
  /** Opens a tenant's database (`Database.open` unless given). */
  connect?: (location: DatabaseLocation) => Promise<Database>;
  /** What runs beside each open database (the indexer); nothing unless given. */
  lifecycle?: DatabaseLifecycle;
}

/**
 * Turns (owner, tenantId) into an open database: the owner's workspace when tenantId is absent, else the
 * tenant's mapping, provisioned on first use when auto-provision is on. Open databases are kept in a bounded
 * LRU and closed when evicted or on shutdown.
 */
export class TenantResolver {
  private readonly open: LRUCache<string, Promise<TenantDatabase>>;
  private readonly empty: EmptyTenants;
  private readonly counts = { hits: 0, misses: 0, evictions: 0 };

  /**
   * How long a retired handle waits for the requests holding it: a request is answered by its deadline, so past it
   * only abandoned work can still hold the handle (it meets a closed database at its next statement).
   */
  private readonly retireWaitMs: number;

  private readonly config: ServerConfig;
  private readonly control: ControlStore;
  private readonly registry: TenantRegistry;
  /** Creates tenant databases (management's `provision` upserts use it too). */
  readonly provisioner: TenantProvisioner;
  private readonly secrets: SecretBox;
  private readonly logger: Logger;
  private readonly connect: (location: DatabaseLocation) => Promise<Database>;
  private readonly lifecycle: DatabaseLifecycle;

  constructor({
    config,
    control,
    registry,
    provisioner,
    secrets,
    logger,
    connect = (location) => Database.open(location),
    lifecycle = NO_LIFECYCLE,
  }: TenantResolverOptions) {
    this.config = config;
    this.control = control;
    this.registry = registry;
    this.provisioner = provisioner;
    this.secrets = secrets;
    this.logger = logger;
    this.connect = connect;
    this.lifecycle = lifecycle;
    this.retireWaitMs = config.requestDeadlineMs + 1_000;
    this.empty = new EmptyTenants(connect, this.retireWaitMs);
    this.open = new LRUCache({
      max: Math.max(1, config.tenantCacheSize),
      // A request may still hold an evicted handle: it is closed once the requests using it end, not under them.
      dispose: (entry, _key, reason) => {
        if (reason !== 'evict') return;
        this.counts.evictions++;
        void this.retire(entry);
      },
    });
  }

  /**
   * Resolves a request's database as `resolve` does and takes a lease on it: the handle is not closed under the
   * request (an eviction or a mapping change waits for `release`). A handle retired between the lookup and the lease
   * is looked up again; a tenant churning so fast that it never holds answers SERVER_BUSY (retryable).
   */
  async lease(ownerId: string, tenantId: string | null, now: Date, options: ResolveOptions = {}): Promise<TenantLease> {
    for (let attempt = 0; attempt < LEASE_ATTEMPTS; attempt++) {
      const lease = await this.locate(ownerId, tenantId, now, options, takeLease);
      if (lease !== null) return lease;
    }
    throw new ApiError('SERVER_BUSY', 'The database of this tenant is being reopened; retry the request', {
      retryAfterSeconds: 1,
    });
  }

  /**
   * Resolves the database for a request, or throws the contract's tenancy error. An unknown tenantId is provisioned
   * only when `createTenant` (the default) allows it and the workspace is under its tenant quota; otherwise reads get
   * an empty stand-in.
   */
  resolve(ownerId: string, tenantId: string | null, now: Date, options: ResolveOptions = {}): Promise<TenantDatabase> {
    return this.locate(ownerId, tenantId, now, options, (entry) => entry);
  }

  /**
   * Finds the cache entry of a request's database and hands it to `take` in the same turn that found it: a lease
   * taken there is taken before any eviction that follows can start the handle's retirement (promise reactions run
   * in the order they were added).
   */
  private async locate<T>(
    ownerId: string,
    tenantId: string | null,
    now: Date,
    { createTenant = true }: ResolveOptions,
    take: (entry: Promise<TenantDatabase>) => Promise<T>,
  ): Promise<T> {
    if (tenantId === null) return this.workspace(ownerId, take);
    let row = await this.registry.find(ownerId, tenantId);
    if (row === undefined) {
      if (!this.config.tenantAutoProvision) {
        throw new ApiError('TENANT_DATABASE_NOT_CONFIGURED', `No database is configured for tenant '${tenantId}'`);
      }
      if (!createTenant) return take(this.empty.get(ownerId, tenantId));
      row = await this.autoProvision(ownerId, tenantId, now);
    }
    return take(this.openMapping(row));
  }

  /**
   * Throws TENANT_QUOTA_EXCEEDED when the owner already has MEMORY_TENANT_QUOTA tenants (every mapping counts,
   * disabled ones too: each holds a database). Management's explicit mappings may call it before saving a new one.
   */
  async assertTenantQuota(ownerId: string): Promise<void> {
    const limit = this.config.tenantQuota;
    if (limit > 0 && (await this.registry.count(ownerId)) >= limit) throw quotaExceeded(limit);
  }

  /** The open-database cache's hits, misses and evictions so far, and what it holds now. */
  cacheStats(): TenantCacheStats {
    return { ...this.counts, open: this.open.size };
  }

  /** Closes every open database at once (shutdown: requests still running meet a closed database). */
  async close(): Promise<void> {
    await this.empty.close();
    const entries = [...this.open.values()];
    this.open.clear();
    for (const entry of entries) await this.retire(entry, 0);
  }

  /**
   * Drops a cached handle (after a mapping changes): the next request opens the new mapping at once; the old handle
   * closes when the requests using it end.
   */
  async forget(key: string): Promise<void> {
    const entry = this.open.peek(key);
    this.open.delete(key);
    if (entry) await this.retire(entry);
  }

  private async workspace<T>(ownerId: string, take: (entry: Promise<TenantDatabase>) => Promise<T>): Promise<T> {
    return take(this.cached(tenantKey(ownerId, null), null, await this.workspaceLocation(ownerId)));
  }

  /** Where an owner's workspace database is (a data-dir-relative file resolved against this server's data dir). */
  private async workspaceLocation(ownerId: string): Promise<DatabaseLocation> {
    const owner = await this.control.findOwner(ownerId);
    const stored = owner?.workspace_db_url ?? null;
    if (stored === null) {
      throw new ApiError(
        'DATABASE_NOT_CONFIGURED',
        'No active workspace database is configured for this API key owner',
      );
    }
    const url = resolveDatabaseUrl(this.config.dataDir, stored);
    const isDefault = url === this.config.defaultDbUrl;
    const namespace = isDefault ? this.config.defaultDbNamespace : undefined;
    return {
      url,
      authToken: isDefault ? this.config.defaultDbToken : undefined,
      ...(namespace ? { fetch: namespaceFetch(namespace) } : {}),
    };
  }

  /**
   * Where a database is, without opening it (export and import open their own connection to it): the workspace's
   * with a null tenantId, else the tenant's, provisioned first when `createTenant` allows (null: no such tenant).
   */
  async location(
    ownerId: string,
    tenantId: string | null,
    now: Date,
    { createTenant = false }: ResolveOptions = {},
  ): Promise<DatabaseLocation | null> {
    if (tenantId === null) return this.workspaceLocation(ownerId);
    let row = await this.registry.find(ownerId, tenantId);
    if (row === undefined) {
      if (!createTenant) return null;
      if (!this.config.tenantAutoProvision) {
        throw new ApiError('TENANT_DATABASE_NOT_CONFIGURED', `No database is configured for tenant '${tenantId}'`);
      }
      row = await this.autoProvision(ownerId, tenantId, now);
    }
    return this.mappingLocationOf(row);
  }

  private async autoProvision(ownerId: string, tenantId: string, now: Date): Promise<TenantRow> {
    await this.assertTenantQuota(ownerId);
    let provisioned: ProvisionedDatabase;
    try {
      provisioned = await this.provisioner.provision(ownerId, tenantId);
    } catch (error) {
      this.logger.error('tenant provisioning failed', { tenantId, error: describeError(error) });
      throw new ApiError('TENANT_DATABASE_NOT_READY', `The database of tenant '${tenantId}' could not be created yet`, {
        status: 'provisioning',
      });
    }
    const row: TenantRow = {
      owner_id: ownerId,
      tenant_id: tenantId,
      mode: 'provision',
      status: 'ready',
      source: 'auto',
      db_url: provisioned.url,
      db_token_encrypted: null,
      db_name: provisioned.dbName,
      metadata: '{}',
      last_error: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    // The quota is checked again in the insert itself, so concurrent first writes cannot overshoot it.
    const inserted = await this.registry.insertIfAbsent(row, this.config.tenantQuota);
    const saved = await this.registry.find(ownerId, tenantId);
    if (!inserted && saved === undefined) throw quotaExceeded(this.config.tenantQuota);
    this.empty.drop(ownerId, tenantId);
    if (inserted) this.logger.info('tenant provisioned', { tenantId, provisioner: this.provisioner.kind });
    return saved ?? row;
  }

  private openMapping(row: TenantRow): Promise<TenantDatabase> {
    return this.cached(tenantKey(row.owner_id, row.tenant_id), row.tenant_id, this.mappingLocationOf(row));
  }

  /** Where a usable mapping's database is, or the tenancy error of one that is not. */
  private mappingLocationOf(row: TenantRow): DatabaseLocation {
    if (row.status === 'disabled') {
      throw new ApiError(
        'TENANT_DATABASE_NOT_CONFIGURED',
        `The database mapping of tenant '${row.tenant_id}' is disabled`,
      );
    }
    if (row.status !== 'ready') {
      throw new ApiError('TENANT_DATABASE_NOT_READY', `The database of tenant '${row.tenant_id}' is not ready yet`, {
        status: row.status,
      });
    }
    if (row.db_url === null) {
      throw new ApiError('TENANT_DATABASE_NOT_CONFIGURED', `No database is configured for tenant '${row.tenant_id}'`);
    }
    const remote = !row.db_url.startsWith('file:');
    if (row.mode === 'attach' && remote && row.db_token_encrypted === null) {
      throw new ApiError(
        'TENANT_DATABASE_CREDENTIALS_MISSING',
        `The attached database of tenant '${row.tenant_id}' has no credentials`,
      );
    }
    const authToken =
      row.db_token_encrypted === null ? undefined : this.readToken(row.tenant_id, row.db_token_encrypted);
    const url = resolveDatabaseUrl(this.config.dataDir, row.db_url);
    return mappingLocation({ ...row, db_url: url }, authToken, this.config);
  }

  /** Decrypts a mapping's token; one sealed under another MEMORY_SECRET_KEY counts as missing credentials. */
  private readToken(tenantId: string, sealed: string): string {
    try {
      return this.secrets.decrypt(sealed);
    } catch {
      throw new ApiError(
        'TENANT_DATABASE_CREDENTIALS_MISSING',
        `The stored credentials of tenant '${tenantId}' cannot be read with this server's MEMORY_SECRET_KEY`,
      );
    }
  }

  private cached(key: string, tenantId: string | null, location: DatabaseLocation): Promise<TenantDatabase> {
    const existing = this.open.get(key);
    if (existing) {
      this.counts.hits++;
      // A growing tenant's planner statistics are refreshed hourly (a no-op until they are an hour old).
      existing.then((handle) => handle.database.refreshStatistics()).catch(() => undefined);
      return existing;
    }
    this.counts.misses++;
    // Shared by every request that waits for this database: opened outside the first one's deadline, so that
    // request timing out does not fail the others (or throw the open away).
    const opening = outsideRequestScope(async () => {
      const database = await this.connect(location).catch((error: unknown) => {
        throw unreadable(error, tenantId);
      });
      await migrate(database, tenantMigrations).catch(async (error: unknown) => {
        await database.close().catch(() => undefined);
        throw unreadable(error, tenantId);
      });
      await database.refreshStatisticsOnOpen('memories');
      database.logs.onDropped = (rows, reason) =>
        this.logger.warn('buffered log rows not written', { key, rows, reason });
      const handle = new TenantDatabase(key, tenantId, database, {
        jobsQueued: (tenant) => this.lifecycle.jobsQueued(tenant),
      });
      this.lifecycle.opened(handle);
      return handle;
    });
    this.open.set(key, opening);
    opening.catch((error: unknown) => {
      if (this.open.peek(key) === opening) this.open.delete(key);
      this.logger.error('tenant database failed to open', { key, error: describeError(error) });
    });
    return opening;
  }

  /**
   * Closes a handle that left the cache once no request holds it (see TenantDatabase.retire): its indexer stops
   * first, then its connections close in every worker, whatever the indexer's stop met. Never throws.
   */
  private async retire(entry: Promise<TenantDatabase>, waitMs = this.retireWaitMs): Promise<void> {
    let handle: TenantDatabase;
    try {
      handle = await entry;
    } catch {
      return; // It never opened: nothing to close.
    }
    try {
      await handle.retire(waitMs);
      await this.lifecycle.closing(handle);
    } catch (error) {
      this.logger.warn('stopping a database before its close failed', { key: handle.key, error: describeError(error) });
    } finally {
      await handle.database.close().catch((error: unknown) => {
        this.logger.warn('closing a database failed', { key: handle.key, error: describeError(error) });
      });
    }
  }
}

function quotaExceeded(limit: number): ApiError {
  return new ApiError(
    'TENANT_QUOTA_EXCEEDED',
    `This workspace already has ${limit} tenants, its quota (MEMORY_TENANT_QUOTA): no new tenant can be created`,
    { limit },
  );
}

/** SQLite's codes for a file that is not a database or is damaged, and ours for an emptied one (store/database.ts). */
const DAMAGED_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'DATABASE_FILE_EMPTY']);

/**
 * A database that cannot be read answers TENANT_DATABASE_UNREADABLE (a 500: it needs an operator and a backup),
 * never an empty tenant that accepts writes; any other opening failure is passed on as it is.
 */
function unreadable(error: unknown, tenantId: string | null): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || ![...DAMAGED_CODES].some((damaged) => code.startsWith(damaged))) return error;
  const which = tenantId === null ? 'The workspace database' : `The database of tenant '${tenantId}'`;
  return new ApiError(
    'TENANT_DATABASE_UNREADABLE',
    `${which} cannot be read (${code}): it is damaged or not a database. Restore it from a backup; nothing was written.`,
    { code },
  );
}
