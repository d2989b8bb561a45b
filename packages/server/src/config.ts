import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { FeatureFlag } from '@memory-service/contract';
import * as z from 'zod';
import { AI_SDK_PROVIDERS } from './embedding-models/ai-sdk-providers.js';
import { DEFAULT_EMBEDDING_MODEL } from './embedding-models/default-model.js';
import { type EndpointConfig, EndpointConfigSchema } from './embedding-models/endpoint-config.js';
import { LOG_LEVELS } from './logger.js';

export { LOG_LEVELS, type LogLevel } from './logger.js';

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];

const blank = (value: string | undefined): value is undefined => value === undefined || value.trim() === '';

/** A text; unset is `fallback` (an empty value stays empty). */
function text<Fallback extends string | undefined = undefined>(fallback?: Fallback) {
  return z
    .string()
    .optional()
    .transform((value): string | Fallback => value ?? (fallback as Fallback));
}

/** A text where an empty value counts as unset. */
function optionalText() {
  return z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value));
}

/** A switch: `1`, `true`, `yes` or `on` (any case) is on, any other value off; unset or blank is `fallback`. */
function flag(fallback: boolean) {
  return z
    .string()
    .optional()
    .transform((value) => (blank(value) ? fallback : TRUE_WORDS.includes(value.trim().toLowerCase())));
}

/**
 * A non-negative integer; unset or blank is `fallback` (undefined for a default computed from the machine), anything
 * else refuses to start. With `atLeastOne`, 0 is read as 1 (a pool or a queue cannot be empty).
 */
function integer<Fallback extends number | undefined>(fallback: Fallback, { atLeastOne = false } = {}) {
  return z
    .string()
    .optional()
    .transform((value, context): number | Fallback => {
      if (blank(value)) return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < 0) {
        context.addIssue({ code: 'custom', message: 'must be a non-negative integer' });
        return z.NEVER;
      }
      return atLeastOne ? Math.max(1, parsed) : parsed;
    });
}

/** A comma-separated list, trimmed and lowercased, blanks dropped; unset is empty. */
function lowercaseList() {
  return z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== ''),
    );
}

/** One of `choices` (any case); anything else is `fallback`. */
function choice<const Choice extends string>(choices: readonly Choice[], fallback: Choice) {
  return z
    .string()
    .optional()
    .transform((value): Choice => {
      const lower = (value ?? fallback).toLowerCase();
      return (choices as readonly string[]).includes(lower) ? (lower as Choice) : fallback;
    });
}

/** A JSON value checked by `schema`; malformed JSON or a value `schema` refuses gives `message` (never the value). */
function json<Schema extends z.ZodType>(schema: Schema, message: string) {
  return z
    .string()
    .optional()
    .transform((value, context): z.output<Schema> | undefined => {
      if (blank(value)) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      const checked = schema.safeParse(parsed);
      if (!checked.success) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return checked.data;
    });
}

const ENDPOINTS_MESSAGE = 'must be a JSON array of { baseUrl, model, dimensions, ... }';
const PRICES_MESSAGE = 'must be a JSON object of model id -> USD per million tokens';

/** The AI SDK providers' key variables (`OPENAI_API_KEY`, ...): set, they register that provider's models. */
const providerKeys = Object.fromEntries(AI_SDK_PROVIDERS.map((entry) => [entry.apiKeyVariable, optionalText()]));

/**
 * Every variable the server reads from its environment, with its type and default: the one definition of the
 * configuration (the server README's Configuration table lists the same variables and defaults; a test checks it).
 * A bad number refuses to start, naming the variable; a bad switch is off and a bad choice is its default.
 */
export const environmentSchema = z.looseObject({
  MEMORY_HOST: text('127.0.0.1'),
  MEMORY_PORT: integer(8787),
  MEMORY_DATA_DIR: text('./.memory-service'),
  /** Default: `control.db` in the data dir. */
  MEMORY_CONTROL_DB_URL: text(),
  MEMORY_CONTROL_DB_TOKEN: text(),
  /** Default: `workspace.db` in the data dir. */
  MEMORY_DEFAULT_DB_URL: text(),
  MEMORY_DEFAULT_DB_TOKEN: text(),
  MEMORY_CONTROL_DB_NAMESPACE: optionalText(),
  MEMORY_DEFAULT_DB_NAMESPACE: optionalText(),
  MEMORY_BOOTSTRAP_API_KEY: text(),
  MEMORY_ADMIN_TOKEN: text(),
  MEMORY_TENANT_AUTO_PROVISION: flag(true),
  MEMORY_TENANT_PROVISIONER: z
    .string()
    .optional()
    .transform((value): 'file' | 'sqld' => (value === 'sqld' ? 'sqld' : 'file')),
  MEMORY_SQLD_ADMIN_URL: text(),
  MEMORY_SQLD_URL: text(),
  /** Default: generated into the data dir on first start. */
  MEMORY_SECRET_KEY: text(),
  MEMORY_ATTACH_ALLOWED_HOSTS: lowercaseList(),
  MEMORY_ATTACH_ALLOW_PRIVATE_NETWORKS: flag(false),
  MEMORY_ATTACH_MAX_RESPONSE_BYTES: integer(8 * 1024 * 1024, { atLeastOne: true }),
  MEMORY_MCP_ALLOWED_ORIGINS: lowercaseList(),
  MEMORY_MCP_RULE_WRITES: flag(false),
  MEMORY_RATE_LIMIT_PER_MINUTE: integer(600),
  MEMORY_IP_RATE_LIMIT_PER_MINUTE: integer(1200),
  MEMORY_MAX_CONNECTIONS: integer(512),
  MEMORY_HEADERS_TIMEOUT_MS: integer(10_000, { atLeastOne: true }),
  MEMORY_KEEP_ALIVE_TIMEOUT_MS: integer(5_000, { atLeastOne: true }),
  MEMORY_SESSION_ENABLED: flag(true),
  MEMORY_COMPACTION_ENABLED: flag(true),
  MEMORY_CONSOLIDATION_ENABLED: flag(true),
  MEMORY_PROCEDURAL_ENABLED: flag(true),
  MEMORY_FILE_MODE_ENABLED: flag(false),
  MEMORY_EMBEDDING_MODEL: text(DEFAULT_EMBEDDING_MODEL),
  MEMORY_OPENAI_COMPATIBLE_BASE_URL: optionalText(),
  MEMORY_OPENAI_COMPATIBLE_MODEL: optionalText(),
  MEMORY_OPENAI_COMPATIBLE_DIMENSIONS: optionalText(),
  MEMORY_OPENAI_COMPATIBLE_API_KEY: optionalText(),
  MEMORY_OPENAI_COMPATIBLE_PROVIDER: text('openai-compatible'),
  MEMORY_EMBEDDING_ENDPOINTS: json(z.array(EndpointConfigSchema), ENDPOINTS_MESSAGE),
  ...providerKeys,
  MEMORY_EMBEDDING_PRICES: json(z.record(z.string(), z.number().nonnegative()), PRICES_MESSAGE),
  MEMORY_GRAPH_AUTOPILOT: flag(true),
  MEMORY_TENANT_CACHE_SIZE: integer(64),
  /** Default: the core count. */
  MEMORY_DATABASE_WORKERS: integer(undefined, { atLeastOne: true }),
  /** Default: the core count less one (at least 1). */
  MEMORY_EMBEDDING_WORKERS: integer(undefined, { atLeastOne: true }),
  MEMORY_EMBEDDING_QUEUE_LIMIT: integer(2_048, { atLeastOne: true }),
  MEMORY_EMBEDDING_BATCH_SIZE: integer(32, { atLeastOne: true }),
  MEMORY_EMBEDDING_BATCH_WINDOW_MS: integer(4),
  MEMORY_REQUEST_DEADLINE_MS: integer(30_000, { atLeastOne: true }),
  MEMORY_TENANT_CONCURRENCY: integer(8, { atLeastOne: true }),
  MEMORY_TENANT_QUEUE_LIMIT: integer(256),
  MEMORY_TENANT_QUOTA: integer(1_000),
  MEMORY_LOG_LEVEL: choice(LOG_LEVELS, 'info'),
  /** Unset: `/metrics` is served on the API's address only (with the admin token). */
  MEMORY_METRICS_PORT: integer(undefined),
  MEMORY_METRICS_HOST: text('127.0.0.1'),
  /** Unset (and no traces endpoint): no tracing code is loaded. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalText(),
  OTEL_EXPORTER_OTLP_HEADERS: optionalText(),
  OTEL_SERVICE_NAME: text('memory-service'),
});

/**
 * Variables whose bad value never stops the server: the embedding providers' configuration. The variable is ignored
 * (the built-in models stay), and the problem is kept in `embeddingConfigurationError` and logged at start.
 */
const LENIENT_VARIABLES = new Set([
  'MEMORY_OPENAI_COMPATIBLE_BASE_URL',
  'MEMORY_OPENAI_COMPATIBLE_MODEL',
  'MEMORY_OPENAI_COMPATIBLE_DIMENSIONS',
  'MEMORY_OPENAI_COMPATIBLE_API_KEY',
  'MEMORY_OPENAI_COMPATIBLE_PROVIDER',
  'MEMORY_EMBEDDING_ENDPOINTS',
  'MEMORY_EMBEDDING_PRICES',
]);

/** The shorthand endpoint (`MEMORY_OPENAI_COMPATIBLE_*`), if its base URL is set. */
function shorthandEndpoint(
  environment: z.output<typeof environmentSchema>,
  context: z.RefinementCtx,
): EndpointConfig | undefined {
  const baseUrl = environment.MEMORY_OPENAI_COMPATIBLE_BASE_URL;
  if (blank(baseUrl)) return undefined;
  const model = environment.MEMORY_OPENAI_COMPATIBLE_MODEL ?? '';
  const dimensions = Number(environment.MEMORY_OPENAI_COMPATIBLE_DIMENSIONS);
  if (model === '' || !Number.isInteger(dimensions) || dimensions < 1) {
    context.addIssue({
      code: 'custom',
      path: ['MEMORY_OPENAI_COMPATIBLE_BASE_URL'],
      message: 'needs MEMORY_OPENAI_COMPATIBLE_MODEL and MEMORY_OPENAI_COMPATIBLE_DIMENSIONS',
    });
    return undefined;
  }
  const apiKey = environment.MEMORY_OPENAI_COMPATIBLE_API_KEY;
  return {
    id: `${environment.MEMORY_OPENAI_COMPATIBLE_PROVIDER}/${model}`,
    baseUrl,
    model,
    dimensions,
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}

/**
 * The OTLP traces URL: the traces variable as it is, else the base endpoint with `/v1/traces` appended (the
 * OpenTelemetry exporter specification's rule); undefined when neither is set.
 */
function tracesEndpoint(traces: string | undefined, base: string | undefined): string | undefined {
  if (traces !== undefined) return traces;
  if (base === undefined) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs separated by commas, values URL-encoded; malformed pairs dropped. */
function otlpHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, separator).trim())] = decodeURIComponent(
        pair.slice(separator + 1).trim(),
      );
    } catch {
      // A malformed escape: the pair is dropped rather than sent garbled.
    }
  }
  return headers;
}

/** The configuration the environment describes (see `environmentSchema` for each variable). */
const configSchema = environmentSchema.transform((environment, context) => {
  const dataDir = path.resolve(environment.MEMORY_DATA_DIR);
  const shorthand = shorthandEndpoint(environment, context);
  // An endpoint naming its key's variable reads it from the same environment.
  const endpoints = [...(environment.MEMORY_EMBEDDING_ENDPOINTS ?? []), ...(shorthand ? [shorthand] : [])].map(
    (endpoint) => {
      const fromVariable = endpoint.apiKeyVariable === undefined ? undefined : environment[endpoint.apiKeyVariable];
      const apiKey = endpoint.apiKey ?? (typeof fromVariable === 'string' ? fromVariable : undefined);
      return { ...endpoint, ...(apiKey === undefined ? {} : { apiKey }) };
    },
  );
  const flags: Record<FeatureFlag, boolean> = {
    MEMORY_SESSION_ENABLED: environment.MEMORY_SESSION_ENABLED,
    MEMORY_COMPACTION_ENABLED: environment.MEMORY_COMPACTION_ENABLED,
    MEMORY_CONSOLIDATION_ENABLED: environment.MEMORY_CONSOLIDATION_ENABLED,
    MEMORY_PROCEDURAL_ENABLED: environment.MEMORY_PROCEDURAL_ENABLED,
    MEMORY_FILE_MODE_ENABLED: environment.MEMORY_FILE_MODE_ENABLED,
  };
  return {
    host: environment.MEMORY_HOST,
    port: environment.MEMORY_PORT,
    dataDir,
    controlDbUrl: environment.MEMORY_CONTROL_DB_URL ?? dataDirFile(dataDir, 'control.db'),
    controlDbToken: environment.MEMORY_CONTROL_DB_TOKEN,
    defaultDbUrl: environment.MEMORY_DEFAULT_DB_URL ?? dataDirFile(dataDir, 'workspace.db'),
    defaultDbToken: environment.MEMORY_DEFAULT_DB_TOKEN,
    /** With a libSQL server that has namespaces: the namespace holding the control database (sent in Host). */
    controlDbNamespace: environment.MEMORY_CONTROL_DB_NAMESPACE,
    /** Likewise for the default owner's workspace database. */
    defaultDbNamespace: environment.MEMORY_DEFAULT_DB_NAMESPACE,
    bootstrapApiKey: environment.MEMORY_BOOTSTRAP_API_KEY,
    adminToken: environment.MEMORY_ADMIN_TOKEN,
    tenantAutoProvision: environment.MEMORY_TENANT_AUTO_PROVISION,
    tenantProvisioner: environment.MEMORY_TENANT_PROVISIONER,
    /** Admin API of the libSQL server used by the `sqld` provisioner (e.g. `http://127.0.0.1:9090`). */
    sqldAdminUrl: environment.MEMORY_SQLD_ADMIN_URL,
    /** Base URL tenants of the `sqld` provisioner are reached at; the namespace goes in the Host header. */
    sqldUrl: environment.MEMORY_SQLD_URL,
    secretKey: environment.MEMORY_SECRET_KEY,
    /** Hosts `attach` may point at; empty allows any. */
    attachAllowedHosts: environment.MEMORY_ATTACH_ALLOWED_HOSTS,
    /** Per API key, sliding window; 0 disables. */
    rateLimitPerMinute: environment.MEMORY_RATE_LIMIT_PER_MINUTE,
    /** Per client IP, before authentication; 0 disables. */
    ipRateLimitPerMinute: environment.MEMORY_IP_RATE_LIMIT_PER_MINUTE,
    /** Open HTTP connections at once (0 = no cap); past it a new connection is closed as soon as it is accepted. */
    maxConnections: environment.MEMORY_MAX_CONNECTIONS,
    /** Time a connection has to send a request's headers (one that sends nothing included) before 408 and close. */
    headersTimeoutMs: environment.MEMORY_HEADERS_TIMEOUT_MS,
    /** How long a kept-alive connection may wait for its next request. */
    keepAliveTimeoutMs: environment.MEMORY_KEEP_ALIVE_TIMEOUT_MS,
    flags,
    /** The workspace default embedding model. */
    embeddingModel: environment.MEMORY_EMBEDDING_MODEL,
    /** OpenAI-compatible endpoints to register (MEMORY_EMBEDDING_ENDPOINTS, then the MEMORY_OPENAI_COMPATIBLE_* one). */
    embeddingEndpoints: endpoints as EndpointConfig[],
    /** AI SDK providers whose API key variable is set (`openai`, `google`, ...). */
    embeddingProviders: AI_SDK_PROVIDERS.filter((entry) => !blank(environment[entry.apiKeyVariable] as string)).map(
      (entry) => entry.provider,
    ),
    /** Per-model prices (USD per million tokens) replacing the registered ones. */
    embeddingPrices: environment.MEMORY_EMBEDDING_PRICES ?? {},
    /** Why part of the embedding configuration was ignored (it names the variable, never its value), or null. */
    embeddingConfigurationError: null as string | null,
    /**
     * Whether the server may make hybrid a tenant's default strategy by itself: once the tenant is ready (its
     * embedding model available, its memories with their vectors; `rollout/policy-autopilot.ts`) or after two ready
     * canary windows (GET graph/rollout). Off, a policy stays lexical until an operator sets it
     * (`memory-service policy set`). Never overrides a policy an operator set.
     */
    graphAutopilot: environment.MEMORY_GRAPH_AUTOPILOT,
    logLevel: environment.MEMORY_LOG_LEVEL,
    /** How many tenant databases stay open at once (LRU). */
    tenantCacheSize: environment.MEMORY_TENANT_CACHE_SIZE,
    /** Worker threads running local embedding models. */
    embeddingWorkers: environment.MEMORY_EMBEDDING_WORKERS ?? Math.max(1, availableParallelism() - 1),
    /** Texts waiting for local inference before new work is refused with SERVER_BUSY. */
    embeddingQueueLimit: environment.MEMORY_EMBEDDING_QUEUE_LIMIT,
    /** Texts one inference call takes at most. */
    embeddingBatchSize: environment.MEMORY_EMBEDDING_BATCH_SIZE,
    /** How long a batch waits for more texts before it runs. */
    embeddingBatchWindowMs: environment.MEMORY_EMBEDDING_BATCH_WINDOW_MS,
    /** Worker threads holding file-database connections. */
    databaseWorkers: environment.MEMORY_DATABASE_WORKERS ?? Math.max(1, availableParallelism()),
    /** Every request's deadline in milliseconds; past it the work is abandoned. */
    requestDeadlineMs: environment.MEMORY_REQUEST_DEADLINE_MS,
    /** Requests one tenant database may run at once; more wait in its queue. */
    tenantConcurrency: environment.MEMORY_TENANT_CONCURRENCY,
    /** Requests that may wait for one tenant database before SERVER_BUSY. */
    tenantQueueLimit: environment.MEMORY_TENANT_QUEUE_LIMIT,
    /**
     * Whether `attach` may reach loopback, private (RFC 1918, CGNAT, IPv6 ULA) and link-local addresses; metadata
     * addresses and the server's own libSQL servers never.
     */
    attachAllowPrivateNetworks: environment.MEMORY_ATTACH_ALLOW_PRIVATE_NETWORKS,
    /** Bytes one response of an attached database may carry before it is cut off. */
    attachMaxResponseBytes: environment.MEMORY_ATTACH_MAX_RESPONSE_BYTES,
    /**
     * Browser origins allowed on `/api/mcp` (full origins, host names, or `*`); empty allows the listen host and
     * localhost only. Requests without an `Origin` header are not affected.
     */
    mcpAllowedOrigins: environment.MEMORY_MCP_ALLOWED_ORIGINS,
    /**
     * Whether every key's MCP clients may write rules (add, edit, forget type or layer `rule`); off, only keys minted
     * with `allowRuleWrites` may. The HTTP routes accept rule writes either way.
     */
    mcpRuleWrites: environment.MEMORY_MCP_RULE_WRITES,
    /** Tenants one workspace may have (0 = no limit); past it a new one is refused. */
    tenantQuota: environment.MEMORY_TENANT_QUOTA,
    /**
     * A second listen address serving `/metrics` (and `/ready`) without a credential, for a private network only;
     * undefined: none (`/metrics` is on the API's address, behind the admin token).
     */
    metricsPort: environment.MEMORY_METRICS_PORT,
    metricsHost: environment.MEMORY_METRICS_HOST,
    /** Where spans go (OTLP over HTTP, JSON); undefined: tracing is off and none of its code is loaded. */
    tracesEndpoint: tracesEndpoint(
      environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
      environment.OTEL_EXPORTER_OTLP_ENDPOINT,
    ),
    /** Headers sent with every export (`key=value` pairs, comma-separated, as OpenTelemetry's own variable). */
    tracesHeaders: otlpHeaders(environment.OTEL_EXPORTER_OTLP_HEADERS),
    /** The `service.name` of every span. */
    serviceName: environment.OTEL_SERVICE_NAME,
  };
});

/** Everything the server reads from its environment (`environmentSchema`), in the shape the server uses. */
export type ServerConfig = z.output<typeof configSchema>;

function dataDirFile(dataDir: string, name: string): string {
  return `file:${path.join(dataDir, name)}`;
}

/**
 * Parses the environment; a lenient variable with a bad value is dropped (and the first problem kept), any other
 * bad value throws an Error naming the variable.
 */
function parseEnvironment(environment: Record<string, string | undefined>): ServerConfig {
  const remaining: Record<string, unknown> = { ...environment };
  let problem: string | null = null;
  for (;;) {
    const parsed = configSchema.safeParse(remaining);
    if (parsed.success) return { ...parsed.data, embeddingConfigurationError: problem };
    const named = parsed.error.issues.map((issue) => ({ variable: String(issue.path[0]), message: issue.message }));
    const fatal = named.find((issue) => !LENIENT_VARIABLES.has(issue.variable));
    if (fatal !== undefined) throw new Error(`${fatal.variable} ${fatal.message}`);
    const [first] = named;
    problem ??= first === undefined ? null : `${first.variable} ${first.message}`;
    for (const issue of named) delete remaining[issue.variable];
  }
}

/**
 * Reads the configuration from environment variables, with `overrides` (used by tests and embedders) on top.
 * @example const config = loadConfig(process.env, { port: 0 });
 */
export function loadConfig(
  environment: Record<string, string | undefined> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const base = parseEnvironment(environment);
  const merged = { ...base, ...definedOnly(overrides) };
  if (overrides.dataDir !== undefined) {
    // Paths derived from the data dir follow an overridden data dir unless given explicitly.
    const dataDir = path.resolve(overrides.dataDir);
    if (overrides.controlDbUrl === undefined && environment.MEMORY_CONTROL_DB_URL === undefined)
      merged.controlDbUrl = dataDirFile(dataDir, 'control.db');
    if (overrides.defaultDbUrl === undefined && environment.MEMORY_DEFAULT_DB_URL === undefined)
      merged.defaultDbUrl = dataDirFile(dataDir, 'workspace.db');
  }
  merged.flags = { ...base.flags, ...(overrides.flags ?? {}) };
  return merged;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
