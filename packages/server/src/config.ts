import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { FeatureFlag } from '@memory-service/contract';
import { DEFAULT_EMBEDDING_MODEL } from './embeddings/default-model.js';

/** Log levels, most verbose first; `silent` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Everything the server reads from its environment (DESIGN 3). */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  controlDbUrl: string;
  controlDbToken: string | undefined;
  defaultDbUrl: string;
  defaultDbToken: string | undefined;
  /** With a libSQL server that has namespaces: the namespace holding the control database (sent in Host). */
  controlDbNamespace: string | undefined;
  /** Likewise for the default owner's workspace database. */
  defaultDbNamespace: string | undefined;
  bootstrapApiKey: string | undefined;
  adminToken: string | undefined;
  tenantAutoProvision: boolean;
  tenantProvisioner: 'file' | 'sqld';
  /** Admin API of the libSQL server used by the `sqld` provisioner (e.g. `http://127.0.0.1:9090`). */
  sqldAdminUrl: string | undefined;
  /** Base URL tenants of the `sqld` provisioner are reached at; the namespace goes in the Host header. */
  sqldUrl: string | undefined;
  secretKey: string | undefined;
  /** Hosts `attach` may point at (MEMORY_ATTACH_ALLOWED_HOSTS, comma-separated); empty allows any. */
  attachAllowedHosts: string[];
  /** Per API key, sliding window; 0 disables. */
  rateLimitPerMinute: number;
  /** Per client IP, before authentication; 0 disables. */
  ipRateLimitPerMinute: number;
  flags: Record<FeatureFlag, boolean>;
  embeddingModel: string;
  graphAutopilot: boolean;
  logLevel: LogLevel;
  /** How many tenant databases stay open at once (LRU). */
  tenantCacheSize: number;
  /** Worker threads running local embedding models (MEMORY_EMBEDDING_WORKERS; default cores - 1, at least 1). */
  embeddingWorkers: number;
  /** Texts waiting for local inference before new work is refused with SERVER_BUSY (MEMORY_EMBEDDING_QUEUE_LIMIT). */
  embeddingQueueLimit: number;
  /** Texts one inference call takes at most (MEMORY_EMBEDDING_BATCH_SIZE). */
  embeddingBatchSize: number;
  /** How long a batch waits for more texts before it runs (MEMORY_EMBEDDING_BATCH_WINDOW_MS). */
  embeddingBatchWindowMs: number;
  /** Worker threads holding file-database connections (MEMORY_DATABASE_WORKERS; default the core count, at least 1). */
  databaseWorkers: number;
  /** Every request's deadline in milliseconds (MEMORY_REQUEST_DEADLINE_MS); past it the work is abandoned. */
  requestDeadlineMs: number;
  /** Requests one tenant database may run at once (MEMORY_TENANT_CONCURRENCY); more wait in its queue. */
  tenantConcurrency: number;
  /** Requests that may wait for one tenant database before SERVER_BUSY (MEMORY_TENANT_QUEUE_LIMIT). */
  tenantQueueLimit: number;
  /**
   * Whether `attach` may reach loopback, private (RFC 1918, CGNAT, IPv6 ULA) and link-local addresses
   * (MEMORY_ATTACH_ALLOW_PRIVATE_NETWORKS); metadata addresses and the server's own libSQL servers never.
   */
  attachAllowPrivateNetworks: boolean;
  /** Bytes one response of an attached database may carry before it is cut off (MEMORY_ATTACH_MAX_RESPONSE_BYTES). */
  attachMaxResponseBytes: number;
  /**
   * Browser origins allowed on `/api/mcp` (MEMORY_MCP_ALLOWED_ORIGINS, comma-separated: full origins, host names, or
   * `*`); empty allows the listen host and localhost only. Requests without an `Origin` header are not affected.
   */
  mcpAllowedOrigins: string[];
  /** Tenants one workspace may have (MEMORY_TENANT_QUOTA, default 1,000; 0 = no limit); past it a new one is refused. */
  tenantQuota: number;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

function atLeastOne(value: number): number {
  return Math.max(1, value);
}

function fileUrl(file: string): string {
  return `file:${file}`;
}

/** Reads the configuration from environment variables, with `overrides` (used by tests and embedders) on top. */
export function loadConfig(
  environment: Record<string, string | undefined> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const dataDir = path.resolve(overrides.dataDir ?? environment.MEMORY_DATA_DIR ?? './.memory-service');
  const level = (environment.MEMORY_LOG_LEVEL ?? 'info').toLowerCase();
  const logLevel: LogLevel = ['debug', 'info', 'warn', 'error', 'silent'].includes(level)
    ? (level as LogLevel)
    : 'info';
  const provisioner = environment.MEMORY_TENANT_PROVISIONER === 'sqld' ? 'sqld' : 'file';
  const base: ServerConfig = {
    host: environment.MEMORY_HOST ?? '127.0.0.1',
    port: integer(environment.MEMORY_PORT, 8787, 'MEMORY_PORT'),
    dataDir,
    controlDbUrl: environment.MEMORY_CONTROL_DB_URL ?? fileUrl(path.join(dataDir, 'control.db')),
    controlDbToken: environment.MEMORY_CONTROL_DB_TOKEN,
    defaultDbUrl: environment.MEMORY_DEFAULT_DB_URL ?? fileUrl(path.join(dataDir, 'workspace.db')),
    defaultDbToken: environment.MEMORY_DEFAULT_DB_TOKEN,
    controlDbNamespace: environment.MEMORY_CONTROL_DB_NAMESPACE || undefined,
    defaultDbNamespace: environment.MEMORY_DEFAULT_DB_NAMESPACE || undefined,
    bootstrapApiKey: environment.MEMORY_BOOTSTRAP_API_KEY,
    adminToken: environment.MEMORY_ADMIN_TOKEN,
    tenantAutoProvision: flag(environment.MEMORY_TENANT_AUTO_PROVISION, true),
    tenantProvisioner: provisioner,
    sqldAdminUrl: environment.MEMORY_SQLD_ADMIN_URL,
    sqldUrl: environment.MEMORY_SQLD_URL,
    secretKey: environment.MEMORY_SECRET_KEY,
    attachAllowedHosts: (environment.MEMORY_ATTACH_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
    rateLimitPerMinute: integer(environment.MEMORY_RATE_LIMIT_PER_MINUTE, 600, 'MEMORY_RATE_LIMIT_PER_MINUTE'),
    ipRateLimitPerMinute: integer(environment.MEMORY_IP_RATE_LIMIT_PER_MINUTE, 1200, 'MEMORY_IP_RATE_LIMIT_PER_MINUTE'),
    flags: {
      MEMORY_SESSION_ENABLED: flag(environment.MEMORY_SESSION_ENABLED, true),
      MEMORY_COMPACTION_ENABLED: flag(environment.MEMORY_COMPACTION_ENABLED, true),
      MEMORY_CONSOLIDATION_ENABLED: flag(environment.MEMORY_CONSOLIDATION_ENABLED, true),
      MEMORY_PROCEDURAL_ENABLED: flag(environment.MEMORY_PROCEDURAL_ENABLED, true),
      MEMORY_FILE_MODE_ENABLED: flag(environment.MEMORY_FILE_MODE_ENABLED, false),
    },
    embeddingModel: environment.MEMORY_EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL,
    graphAutopilot: flag(environment.MEMORY_GRAPH_AUTOPILOT, true),
    logLevel,
    tenantCacheSize: integer(environment.MEMORY_TENANT_CACHE_SIZE, 64, 'MEMORY_TENANT_CACHE_SIZE'),
    embeddingWorkers: atLeastOne(
      integer(environment.MEMORY_EMBEDDING_WORKERS, availableParallelism() - 1, 'MEMORY_EMBEDDING_WORKERS'),
    ),
    embeddingQueueLimit: atLeastOne(
      integer(environment.MEMORY_EMBEDDING_QUEUE_LIMIT, 2_048, 'MEMORY_EMBEDDING_QUEUE_LIMIT'),
    ),
    embeddingBatchSize: atLeastOne(integer(environment.MEMORY_EMBEDDING_BATCH_SIZE, 32, 'MEMORY_EMBEDDING_BATCH_SIZE')),
    embeddingBatchWindowMs: integer(
      environment.MEMORY_EMBEDDING_BATCH_WINDOW_MS,
      4,
      'MEMORY_EMBEDDING_BATCH_WINDOW_MS',
    ),
    databaseWorkers: atLeastOne(
      integer(environment.MEMORY_DATABASE_WORKERS, availableParallelism(), 'MEMORY_DATABASE_WORKERS'),
    ),
    requestDeadlineMs: atLeastOne(
      integer(environment.MEMORY_REQUEST_DEADLINE_MS, 30_000, 'MEMORY_REQUEST_DEADLINE_MS'),
    ),
    tenantConcurrency: atLeastOne(integer(environment.MEMORY_TENANT_CONCURRENCY, 8, 'MEMORY_TENANT_CONCURRENCY')),
    tenantQueueLimit: integer(environment.MEMORY_TENANT_QUEUE_LIMIT, 256, 'MEMORY_TENANT_QUEUE_LIMIT'),
    attachAllowPrivateNetworks: flag(environment.MEMORY_ATTACH_ALLOW_PRIVATE_NETWORKS, false),
    attachMaxResponseBytes: atLeastOne(
      integer(environment.MEMORY_ATTACH_MAX_RESPONSE_BYTES, 8 * 1024 * 1024, 'MEMORY_ATTACH_MAX_RESPONSE_BYTES'),
    ),
    mcpAllowedOrigins: (environment.MEMORY_MCP_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim().toLowerCase())
      .filter((origin) => origin !== ''),
    tenantQuota: integer(environment.MEMORY_TENANT_QUOTA, 1_000, 'MEMORY_TENANT_QUOTA'),
  };
  const merged = { ...base, ...definedOnly(overrides) };
  if (overrides.dataDir !== undefined) {
    // Paths derived from the data dir follow an overridden data dir unless given explicitly.
    if (overrides.controlDbUrl === undefined && environment.MEMORY_CONTROL_DB_URL === undefined)
      merged.controlDbUrl = fileUrl(path.join(dataDir, 'control.db'));
    if (overrides.defaultDbUrl === undefined && environment.MEMORY_DEFAULT_DB_URL === undefined)
      merged.defaultDbUrl = fileUrl(path.join(dataDir, 'workspace.db'));
  }
  merged.flags = { ...base.flags, ...(overrides.flags ?? {}) };
  return merged;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
