import type { IdempotencyLedger } from './admission/idempotency.js';
import type { SlidingWindowRateLimiter } from './admission/rate-limiter.js';
import type { TenantGate } from './admission/tenant-gate.js';
import type { ServerConfig } from './config.js';
import type { InferencePoolLease } from './embeddings/inference-pool.js';
import type { EmbeddingRegistry } from './embeddings/registry.js';
import type { IndexingService } from './indexing/indexing-service.js';
import type { Logger } from './logger.js';
import type { Observability } from './operator/observability.js';
import type { ControlStore } from './store/control-store.js';
import type { TenantRegistry } from './store/tenant-registry.js';
import type { TenantResolver } from './tenancy/resolver.js';
import type { SecretBox } from './tenancy/secrets.js';

/** Everything long-lived the server holds: built once at start, shared by every request. */
export interface Services {
  config: ServerConfig;
  logger: Logger;
  control: ControlStore;
  registry: TenantRegistry;
  resolver: TenantResolver;
  /** The embedding models this server can use, built from its configuration at start. */
  embeddings: EmbeddingRegistry;
  /** The background indexers deriving vectors and graph edges from the durable job queue of each open database. */
  indexing: IndexingService;
  secrets: SecretBox;
  keyRateLimiter: SlidingWindowRateLimiter;
  ipRateLimiter: SlidingWindowRateLimiter;
  /** Per-tenant admission (MEMORY_TENANT_CONCURRENCY, MEMORY_TENANT_QUEUE_LIMIT). */
  tenantGate: TenantGate;
  /** Idempotency keys of write requests, and the first requests of each still running here. */
  idempotency: IdempotencyLedger;
  /** This server's hold on the process-wide pool of threads running local embedding models. */
  inferencePool: InferencePoolLease;
  /** Metrics (`/metrics`), readiness (`/ready`) and traces (with an OTLP endpoint) of this server. */
  observability: Observability;
  /** The clock (tests may pin it). */
  now: () => Date;
}
