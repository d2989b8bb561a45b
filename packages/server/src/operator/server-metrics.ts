import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { TenantGateStats } from '../admission/tenant-gate.js';
import type { InferencePoolStats } from '../embeddings/inference-pool.js';
import type { IndexingBacklog } from '../indexing/indexing-service.js';
import type { DatabasePoolStats } from '../store/database-pool.js';
import type { TenantCacheStats } from '../tenancy/resolver.js';

/** Where the gauges read from at scrape time: counters the server keeps as work happens (no query, no scan). */
export interface MetricSources {
  tenantGate: () => TenantGateStats;
  /** Process-wide: the threads running local models are shared by every server of the process. */
  inference: () => InferencePoolStats;
  /** Process-wide, likewise. */
  database: () => DatabasePoolStats;
  indexing: () => IndexingBacklog;
  /** The open-tenant-database cache (the resolver's). */
  tenantCache: () => TenantCacheStats;
  /** Wall clock, epoch milliseconds (for the index lag). */
  now: () => number;
}

/** How a request reached the server: an HTTP route, or an MCP tool call inside `/api/mcp`. */
export type Transport = 'http' | 'mcp';

/** Request latency buckets, in seconds: a cached read (ms) up to the default deadline (30 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** `2xx`, `4xx`, `5xx`... (histograms by class: a series per exact status and bucket is more than a dashboard needs). */
const statusClass = (status: number) => `${Math.trunc(status / 100)}xx`;

/**
 * This server's Prometheus metrics, in a registry of its own (tests run several servers in one process; the global
 * default registry would mix them). Labels come from closed sets only: operation ids of the contract's table (and
 * `mcp`, `docs`, `console`, `metrics`, `ready`, `unmatched`), HTTP statuses, transports, worker states and registered
 * model ids. Never a tenant, user, project, key, path or text: a label per tenant would grow without bound.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'transport' | 'operation' | 'status'>;
  private readonly latency: Histogram<'transport' | 'operation' | 'status_class'>;
  private readonly modelLoadWait: Counter<'transport' | 'operation'>;
  private defaultsCollected = false;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'memory_requests_total',
      help: 'Requests answered, by transport (http, mcp tool call), operation id and HTTP status.',
      labelNames: ['transport', 'operation', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'memory_request_duration_seconds',
      help: 'Request latency by transport, operation and status class, without time spent waiting for a local embedding model to load (memory_request_model_load_wait_seconds_total).',
      labelNames: ['transport', 'operation', 'status_class'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.modelLoadWait = new Counter({
      name: 'memory_request_model_load_wait_seconds_total',
      help: 'Seconds requests waited for a local embedding model to load, left out of memory_request_duration_seconds.',
      labelNames: ['transport', 'operation'],
      registers,
    });
    registerGateMetrics(registers, sources);
    registerInferenceMetrics(registers, sources);
    registerDatabaseMetrics(registers, sources);
    registerIndexingMetrics(registers, sources);
    registerTenantCacheMetrics(registers, sources);
  }

  /** Counts one answered request (or MCP tool call) and its latency, the model-load wait left out. */
  observeRequest(request: {
    transport: Transport;
    operation: string;
    status: number;
    durationMs: number;
    modelLoadWaitMs: number;
  }): void {
    const { transport, operation, status } = request;
    this.requests.inc({ transport, operation, status: String(status) });
    const seconds = Math.max(0, request.durationMs - request.modelLoadWaitMs) / 1000;
    this.latency.observe({ transport, operation, status_class: statusClass(status) }, seconds);
    if (request.modelLoadWaitMs > 0) this.modelLoadWait.inc({ transport, operation }, request.modelLoadWaitMs / 1000);
  }

  /** The exposition text (process metrics start on the first scrape, so servers never scraped pay nothing). */
  async render(): Promise<{ contentType: string; body: string }> {
    if (!this.defaultsCollected) {
      this.defaultsCollected = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

type Registers = Registry[];

/** A counter whose total is kept elsewhere (a pool's own counters): set to that total at each scrape. */
function totalCounter<Label extends string>(
  registers: Registers,
  name: string,
  help: string,
  labelNames: readonly Label[],
  read: () => Array<[Partial<Record<Label, string>>, number]>,
): void {
  new Counter<Label>({
    name,
    help,
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/** A gauge read at each scrape. */
function readGauge<Label extends string>(
  registers: Registers,
  name: string,
  help: string,
  labelNames: readonly Label[],
  read: () => Array<[Partial<Record<Label, string>>, number]>,
): void {
  new Gauge<Label>({
    name,
    help,
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
}

function registerGateMetrics(registers: Registers, { tenantGate }: MetricSources): void {
  readGauge(
    registers,
    'memory_tenant_gate_requests',
    'Requests in the per-tenant lanes, all tenants together: running, or waiting for a slot.',
    ['state'],
    () => {
      const stats = tenantGate();
      return [
        [{ state: 'running' }, stats.running],
        [{ state: 'waiting' }, stats.waiting],
      ];
    },
  );
  readGauge(registers, 'memory_tenant_gate_lanes', 'Tenants with a request running or waiting.', [], () => [
    [{}, tenantGate().lanes],
  ]);
  totalCounter(registers, 'memory_tenant_gate_admitted_total', 'Requests admitted by their tenant lane.', [], () => [
    [{}, tenantGate().admitted],
  ]);
  totalCounter(
    registers,
    'memory_tenant_gate_wait_seconds_total',
    'Seconds admitted requests waited for a slot in their tenant lane, summed.',
    [],
    () => [[{}, tenantGate().waitSeconds]],
  );
  totalCounter(
    registers,
    'memory_tenant_gate_rejected_total',
    'Requests answered SERVER_BUSY because their tenant queue was full.',
    [],
    () => [[{}, tenantGate().rejected]],
  );
}

function registerInferenceMetrics(registers: Registers, { inference }: MetricSources): void {
  readGauge(
    registers,
    'memory_inference_threads',
    'Threads running local embedding models (process-wide), busy with a batch or idle.',
    ['state'],
    () => {
      const stats = inference();
      return [
        [{ state: 'busy' }, stats.busyThreads],
        [{ state: 'idle' }, stats.threads - stats.busyThreads],
      ];
    },
  );
  readGauge(
    registers,
    'memory_inference_queue_texts',
    'Texts waiting for a local embedding thread (every model; MEMORY_EMBEDDING_QUEUE_LIMIT applies per model).',
    [],
    () => [[{}, inference().waitingTexts]],
  );
  totalCounter(
    registers,
    'memory_inference_busy_seconds_total',
    'Thread-seconds spent running embedding batches (model loads included); its rate over the thread count is the encoder utilisation.',
    [],
    () => [[{}, inference().busySeconds]],
  );
  totalCounter(registers, 'memory_inference_batches_total', 'Embedding batches run, by outcome.', ['outcome'], () => {
    const { batches } = inference();
    return [
      [{ outcome: 'succeeded' }, batches.succeeded],
      [{ outcome: 'failed' }, batches.failed],
    ];
  });
  totalCounter(registers, 'memory_inference_texts_total', 'Texts embedded by local models.', [], () => [
    [{}, inference().texts],
  ]);
  totalCounter(registers, 'memory_model_loads_total', 'Loads of a local embedding model by a thread.', ['model'], () =>
    inference().models.map(({ model, count }) => [{ model }, count]),
  );
  totalCounter(
    registers,
    'memory_model_load_seconds_total',
    'Seconds threads spent starting and loading local embedding models (never counted as request latency).',
    ['model'],
    () => inference().models.map(({ model, seconds }) => [{ model }, seconds]),
  );
  readGauge(
    registers,
    'memory_model_last_load_seconds',
    'How long the latest load of a local embedding model took.',
    ['model'],
    () => inference().models.map(({ model, lastSeconds }) => [{ model }, lastSeconds]),
  );
}

function registerDatabaseMetrics(registers: Registers, { database }: MetricSources): void {
  readGauge(
    registers,
    'memory_database_workers',
    'Database worker threads (process-wide), busy with a statement or idle.',
    ['state'],
    () => {
      const stats = database();
      return [
        [{ state: 'busy' }, stats.busyWorkers],
        [{ state: 'idle' }, stats.workers - stats.busyWorkers],
      ];
    },
  );
  readGauge(
    registers,
    'memory_database_pending_requests',
    'Database requests waiting for a worker (queued) or sent to one and not answered yet (in_flight).',
    ['state'],
    () => {
      const stats = database();
      return [
        [{ state: 'queued' }, stats.queued],
        [{ state: 'in_flight' }, stats.inFlight],
      ];
    },
  );
  totalCounter(
    registers,
    'memory_database_busy_seconds_total',
    'Worker-seconds with database work in flight; its rate over the worker count is the utilisation.',
    [],
    () => [[{}, database().busySeconds]],
  );
  totalCounter(registers, 'memory_database_requests_total', 'Database requests answered by the workers.', [], () => [
    [{}, database().completed],
  ]);
}

function registerIndexingMetrics(registers: Registers, { indexing, now }: MetricSources): void {
  readGauge(
    registers,
    'memory_index_backlog_jobs',
    'Index jobs (vectors, graph edges) waiting in the open tenant databases, as last measured (up to 10,000 a database).',
    [],
    () => [[{}, indexing().pending]],
  );
  readGauge(
    registers,
    'memory_index_lag_seconds',
    'Age of the oldest waiting index job in the open tenant databases (0 when none waits).',
    [],
    () => {
      const { oldestQueuedAt } = indexing();
      return [[{}, oldestQueuedAt === null ? 0 : Math.max(0, (now() - oldestQueuedAt) / 1000)]];
    },
  );
  totalCounter(registers, 'memory_index_jobs_processed_total', 'Index jobs processed by this server.', [], () => [
    [{}, indexing().processed],
  ]);
  readGauge(registers, 'memory_open_tenant_databases', 'Tenant databases this server has open.', [], () => [
    [{}, indexing().openDatabases],
  ]);
}

function registerTenantCacheMetrics(registers: Registers, { tenantCache }: MetricSources): void {
  totalCounter(
    registers,
    'memory_tenant_cache_lookups_total',
    'Requests for a tenant database, by whether it was open already (hit) or had to be opened (miss).',
    ['outcome'],
    () => {
      const { hits, misses } = tenantCache();
      return [
        [{ outcome: 'hit' }, hits],
        [{ outcome: 'miss' }, misses],
      ];
    },
  );
  totalCounter(
    registers,
    'memory_tenant_cache_evictions_total',
    'Tenant databases closed to make room for another (MEMORY_TENANT_CACHE_SIZE).',
    [],
    () => [[{}, tenantCache().evictions]],
  );
}
