/** Attributes of a span: closed facts only (an operation id, a status, a count), never a scope id or content. */
export type SpanAttributes = Record<string, string | number | boolean>;

/**
 * A span of this server's tracer, as the rest of the server sees it: tracing code (`otlp-tracer.ts`) is loaded only
 * when an OTLP endpoint is configured, and nothing else imports it. Times are `performance.now()` milliseconds.
 */
export interface TraceSpan {
  setAttributes(attributes: SpanAttributes): void;
  /** A child span, started now or at `startTime`. */
  child(name: string, attributes?: SpanAttributes, startTime?: number): TraceSpan;
  /** Ends the span (now, or at `endTime`); `failed` marks it an error. */
  end(options?: { failed?: boolean; endTime?: number }): void;
}

/** This server's tracer: one root span per HTTP request, flushed and stopped when the server closes. */
export interface RequestTracer {
  startRequest(name: string, attributes: SpanAttributes): TraceSpan;
  /** Sends the finished spans now. */
  flush(): Promise<void>;
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}
