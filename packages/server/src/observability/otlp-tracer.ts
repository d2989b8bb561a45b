import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { RequestTracer, SpanAttributes, TraceSpan } from './trace-span.js';

/** Where and as what this server exports its spans. */
export interface OtlpTracerOptions {
  /** The OTLP/HTTP traces URL (`.../v1/traces`). */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  /** How long a span may wait before its batch is sent. */
  exportDelayMs?: number;
}

/** Epoch milliseconds of a `performance.now()` reading. */
const epochMs = (time: number) => performance.timeOrigin + time;

/** A span of the SDK behind the server's own span interface; its parent is passed explicitly (no global context). */
class OtlpSpan implements TraceSpan {
  private readonly context: Context;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
  ) {
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(attributes);
  }

  child(name: string, attributes: SpanAttributes = {}, startTime?: number): TraceSpan {
    const options = { attributes, ...(startTime === undefined ? {} : { startTime: epochMs(startTime) }) };
    return new OtlpSpan(this.tracer, this.tracer.startSpan(name, options, this.context));
  }

  end(options: { failed?: boolean; endTime?: number } = {}): void {
    if (options.failed === true) this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.span.end(options.endTime === undefined ? undefined : epochMs(options.endTime));
  }
}

/**
 * A tracer exporting over OTLP/HTTP (JSON) in batches. It is this server's own: nothing is registered globally, so
 * servers sharing a process (tests, an embedding application with its own OpenTelemetry set-up) do not interfere.
 */
export function createOtlpTracer(options: OtlpTracerOptions): RequestTracer {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: options.url, headers: options.headers }),
        scheduledDelayMillis: options.exportDelayMs ?? 2_000,
      }),
    ],
  });
  const tracer = provider.getTracer('@memory-service/server');
  return {
    startRequest: (name, attributes) =>
      new OtlpSpan(tracer, tracer.startSpan(name, { attributes, root: true, kind: SpanKind.SERVER }, ROOT_CONTEXT)),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
