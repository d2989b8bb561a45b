import { IdempotencyLedger } from './admission/idempotency.js';
import { SlidingWindowRateLimiter } from './admission/rate-limiter.js';
import { TenantGate } from './admission/tenant-gate.js';
import { API_KEY_PATTERN, hashApiKey } from './auth/keys.js';
import type { ServerConfig } from './config.js';
import { createEmbeddingRegistry } from './embeddings/default-registry.js';
import type { EmbeddingModelDefinition } from './embeddings/model-definition.js';
import { sharedInferencePool } from './embeddings/shared-inference-pool.js';
import { IndexingService } from './indexing/indexing-service.js';
import { reopenKnownDatabases } from './indexing/reopen-known-databases.js';
import { createLogger, type Logger } from './logger.js';
import { createObservability } from './operator/observability.js';
import { Readiness } from './operator/readiness.js';
import type { Services } from './services.js';
import { ControlStore, DEFAULT_OWNER_ID } from './store/control-store.js';
import { Database } from './store/database.js';
import { sharedDatabasePool } from './store/database-pool.js';
import { IdempotencyKeys } from './store/idempotency-keys.js';
import { migrate } from './store/migrate.js';
import { controlMigrations } from './store/migrations/control.js';
import { TenantRegistry } from './store/tenant-registry.js';
import { chooseProvisioner } from './tenancy/choose-provisioner.js';
import { storedDatabaseUrl } from './tenancy/data-dir-urls.js';
import { namespaceFetch } from './tenancy/host-routed-fetch.js';
import type { TenantProvisioner } from './tenancy/provisioner.js';
import { relocateDatabases } from './tenancy/relocate-databases.js';
import { TenantResolver } from './tenancy/resolver.js';
import { SecretBox } from './tenancy/secrets.js';

/** How long after start the sweep reopening known databases (to resume their index jobs) waits. */
const INDEX_SWEEP_DELAY_MS = 1_000;

/** Options for building services beyond the configuration. */
export interface BootstrapOptions {
  logger?: Logger;
  now?: () => Date;
  provisioner?: TenantProvisioner;
  /**
   * The application's own embedding models, registered before what the configuration discovers (so they win).
   * @example await startServer({ embeddingModel: 'acme/embed-v2' }, { embeddingModels: [acmeModelDefinition] });
   */
  embeddingModels?: readonly EmbeddingModelDefinition[];
}

/**
 * Opens the control database, applies migrations, makes sure the default owner exists and that the
 * bootstrap key (MEMORY_BOOTSTRAP_API_KEY) is registered, and builds the shared services.
 */
export async function createServices(config: ServerConfig, options: BootstrapOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // The providers the configuration names (endpoints, AI SDK keys) are registered before any traffic.
  const embeddings = await createEmbeddingRegistry(config, options.embeddingModels);
  if (config.embeddingConfigurationError !== null)
    logger.warn('embedding configuration ignored', { reason: config.embeddingConfigurationError });
  const now = options.now ?? (() => new Date());
  // File databases run in worker threads; the first server of a process sizes the pool (MEMORY_DATABASE_WORKERS).
  const databasePool = sharedDatabasePool(config.databaseWorkers);
  const controlDatabase = await Database.open(
    {
      url: config.controlDbUrl,
      authToken: config.controlDbToken,
      ...(config.controlDbNamespace ? { fetch: namespaceFetch(config.controlDbNamespace) } : {}),
    },
    databasePool,
  );
  await migrate(controlDatabase, controlMigrations);
  const control = new ControlStore(controlDatabase);
  await control.ensureDefaultOwner(storedDatabaseUrl(config.dataDir, config.defaultDbUrl), now());
  // File databases are named relative to the data dir, so a moved or copied data dir never reaches the original's.
  await relocateDatabases(controlDatabase, config);
  if (config.bootstrapApiKey !== undefined && config.bootstrapApiKey !== '') {
    if (!API_KEY_PATTERN.test(config.bootstrapApiKey)) {
      throw new Error('MEMORY_BOOTSTRAP_API_KEY must be "mem_" followed by 64 hexadecimal characters');
    }
    if ((await control.findKeyByHash(hashApiKey(config.bootstrapApiKey))) === undefined) {
      await control.insertKey(DEFAULT_OWNER_ID, config.bootstrapApiKey, now(), null);
    }
  }
  const registry = new TenantRegistry(controlDatabase);
  const secrets = SecretBox.load(config.secretKey, config.dataDir);
  const provisioner = options.provisioner ?? chooseProvisioner(config, secrets);
  const indexing = new IndexingService({
    logger,
    defaultModel: config.embeddingModel,
    registry: embeddings,
    // Read per batch, so a clock a test pins on the services holds for indexing too.
    now: () => services.now(),
    // Indexers yield to this server's requests (every tenant's: they share the cores).
    foregroundQuietMs: () => services.tenantGate.quietMs(),
  });
  const resolver = new TenantResolver({
    config,
    control,
    registry,
    provisioner,
    secrets,
    logger,
    lifecycle: indexing,
  });
  const services: Services = {
    config,
    logger,
    control,
    registry,
    resolver,
    embeddings,
    indexing,
    secrets,
    keyRateLimiter: new SlidingWindowRateLimiter(config.rateLimitPerMinute),
    ipRateLimiter: new SlidingWindowRateLimiter(config.ipRateLimitPerMinute),
    tenantGate: new TenantGate(config.tenantConcurrency, config.tenantQueueLimit),
    idempotency: new IdempotencyLedger(new IdempotencyKeys(controlDatabase), {
      // A retry waits for its first request as long as a request may run; a run is abandoned (its process ended)
      // once no request could still be running it: the deadline, and as long again for work that outlives it.
      waitMs: config.requestDeadlineMs,
      abandonedAfterMs: 2 * config.requestDeadlineMs,
      now,
      logger,
    }),
    // Local models run in a process-wide thread pool (threads are shared by every server of the process); the latest
    // server's settings apply.
    inferencePool: sharedInferencePool().acquire({
      workers: config.embeddingWorkers,
      queueLimit: config.embeddingQueueLimit,
      batchSize: config.embeddingBatchSize,
      batchWindowMs: config.embeddingBatchWindowMs,
    }),
    // Read at each scrape from counters kept as work happens: a scrape queries no database.
    observability: await createObservability(
      config,
      {
        tenantGate: () => services.tenantGate.stats(),
        inference: () => services.inferencePool.pool.stats(),
        database: () => databasePool.stats(),
        indexing: () => indexing.backlog(),
        tenantCache: () => resolver.cacheStats(),
        now: () => Date.now(),
      },
      new Readiness({
        pingControlDatabase: () => controlDatabase.get('SELECT 1'),
        pingDatabaseWorkers: () => databasePool.openConnections(),
        registry: embeddings,
        embeddingModel: config.embeddingModel,
      }),
    ),
    now,
  };
  // Jobs a killed process left in known databases resume in the background, after start-up.
  indexing.scheduleSweep(() => reopenKnownDatabases(services), INDEX_SWEEP_DELAY_MS);
  return services;
}

/** Closes every database the services hold. */
export async function closeServices(services: Services): Promise<void> {
  await services.indexing.close();
  await services.resolver.close();
  await services.control.database.close();
  // Other servers of the process may still use the pool: this only gives back this server's hold.
  await services.inferencePool.release();
  // The spans of the last requests are sent before the server is gone.
  await services.observability.close();
}
