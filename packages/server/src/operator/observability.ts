import type { ServerConfig } from '../config.js';
import { type ObservedCall, RequestObservation } from '../observability/request-observation.js';
import type { RequestTracer, SpanAttributes } from '../observability/trace-span.js';
import type { Readiness } from './readiness.js';
import { type MetricSources, ServerMetrics } from './server-metrics.js';

/** The operation label of a request no route of the table matched (`/docs`, `/console`, a scanner's path). */
const OTHER_ROUTES: ReadonlyArray<readonly [prefix: string, label: string]> = [
  ['/metrics', 'metrics'],
  ['/ready', 'ready'],
  ['/docs', 'docs'],
  ['/console', 'console'],
];

/**
 * The label of a request's operation: its id when a route of the table matched, else one of a few fixed names
 * (`docs`, `console`, `metrics`, `ready`, `unmatched`), never the path, which a client chooses.
 */
export function operationLabel(operation: string | null, path: string): string {
  if (operation !== null) return operation;
  if (path === '/') return 'console';
  return OTHER_ROUTES.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1] ?? 'unmatched';
}

/**
 * What an operator sees of this server: Prometheus metrics (its own registry), readiness and, when an OTLP endpoint
 * is configured, OpenTelemetry traces. Each HTTP request gets a `RequestObservation` (app.ts); `logRequest` reports the
 * request and each MCP tool call in it, which are counted and traced here.
 */
export class Observability {
  constructor(
    readonly metrics: ServerMetrics,
    readonly readiness: Readiness,
    private readonly tracer: RequestTracer | undefined,
  ) {}

  /** Whether spans are exported (an OTLP endpoint is configured). */
  get tracing(): boolean {
    return this.tracer !== undefined;
  }

  /** Begins observing an HTTP request: its root span is named after its operation. */
  startRequest(method: string, operation: string | null, path: string): RequestObservation {
    const name = operationLabel(operation, path);
    const span = this.tracer?.startRequest(name, {
      'http.request.method': method,
      'memory.operation': name,
      'memory.transport': 'http',
    });
    return new RequestObservation(span, (observation, call) => this.record(observation, call, path));
  }

  /** Sends the finished spans now (tests; a server closing flushes by itself). */
  async flush(): Promise<void> {
    await this.tracer?.flush();
  }

  /** Sends the spans left and stops tracing. */
  async close(): Promise<void> {
    await this.tracer?.shutdown();
  }

  private record(observation: RequestObservation, call: ObservedCall, path: string): void {
    const transport = call.tool === undefined ? 'http' : 'mcp';
    const operation = operationLabel(call.operation, path);
    const end = call.started + call.durationMs;
    const modelLoadWaitMs = observation.modelLoadWaitWithin(call.started, end);
    this.metrics.observeRequest({
      transport,
      operation,
      status: call.status,
      durationMs: call.durationMs,
      modelLoadWaitMs,
    });
    const { span } = observation;
    if (span === undefined) return;
    const attributes: SpanAttributes = {
      'http.response.status_code': call.status,
      'memory.model_load_wait_ms': Math.round(modelLoadWaitMs * 100) / 100,
    };
    const failed = call.status >= 500;
    if (call.tool === undefined) {
      span.setAttributes({ ...attributes, 'memory.tenant_gate.wait_ms': Math.round(observation.tenantGateWaitMs) });
      span.end({ failed, endTime: end });
      return;
    }
    const tool = span.child(operation, { 'memory.operation': operation, 'memory.transport': 'mcp' }, call.started);
    tool.setAttributes({ ...attributes, 'memory.mcp.tool': call.tool });
    tool.end({ failed, endTime: end });
  }
}

/**
 * The server's observability: metrics always; a tracer only when `tracesEndpoint` is set, its OpenTelemetry code
 * imported then and not otherwise (an unset endpoint loads nothing and starts nothing).
 */
export async function createObservability(
  config: Pick<ServerConfig, 'tracesEndpoint' | 'tracesHeaders' | 'serviceName'>,
  sources: MetricSources,
  readiness: Readiness,
): Promise<Observability> {
  const metrics = new ServerMetrics(sources);
  if (config.tracesEndpoint === undefined) return new Observability(metrics, readiness, undefined);
  const { createOtlpTracer } = await import('../observability/otlp-tracer.js');
  const tracer = createOtlpTracer({
    url: config.tracesEndpoint,
    headers: config.tracesHeaders,
    serviceName: config.serviceName,
  });
  return new Observability(metrics, readiness, tracer);
}
