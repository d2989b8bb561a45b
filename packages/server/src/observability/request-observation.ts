import { AsyncLocalStorage } from 'node:async_hooks';
import { currentRequestSignal } from '../request-scope.js';
import type { TraceSpan } from './trace-span.js';

/** A stretch of time, in `performance.now()` milliseconds. */
type Interval = readonly [start: number, end: number];

/** One answered HTTP request, or one MCP tool call inside it, as `logRequest` reports it. */
export interface ObservedCall {
  /** The operation id (`memories.add`, `mcp`), or null when no route matched. */
  operation: string | null;
  /** The MCP tool, for a tool call. */
  tool?: string;
  method: string;
  status: number;
  /** `performance.now()` when the work began, and its duration. */
  started: number;
  durationMs: number;
}

/** Where a request's calls are counted and traced (the server's `Observability`). */
export type CallRecorder = (observation: RequestObservation, call: ObservedCall) => void;

/** Model-load stretches one request keeps (a request waits for a handful of loads at most). */
const MAX_LOAD_WAITS = 32;

/** Milliseconds of `intervals` (which may overlap) that fall within `[start, end]`. */
function overlapMs(intervals: readonly Interval[], start: number, end: number): number {
  const clipped = intervals
    .map(([from, to]): Interval => [Math.max(from, start), Math.min(to, end)])
    .filter(([from, to]) => to > from)
    .sort((left, right) => left[0] - right[0]);
  let total = 0;
  let reached = Number.NEGATIVE_INFINITY;
  for (const [from, to] of clipped) {
    if (to <= reached) continue;
    total += to - Math.max(from, reached);
    reached = to;
  }
  return total;
}

/**
 * What is measured of one HTTP request while it runs: when it started, the stretches it spent waiting for a local
 * embedding model to load (kept out of its latency: a model load is not retrieval), the time it waited in its
 * tenant's lane, and its trace span when tracing is on. It holds no scope id and no content.
 */
export class RequestObservation {
  /** `performance.now()` when the request arrived. */
  readonly started = performance.now();
  /** Milliseconds the request's operations waited for a free slot in their tenant's lane. */
  tenantGateWaitMs = 0;
  private readonly loadWaits: Interval[] = [];

  constructor(
    readonly span: TraceSpan | undefined,
    private readonly recorder: CallRecorder,
  ) {}

  /** Counts and traces one answered call of this request: the request itself, or an MCP tool call in it. */
  record(call: ObservedCall): void {
    this.recorder(this, call);
  }

  /** Records that the request waited for a model to load from `start` to `end`. */
  noteModelLoadWait(start: number, end: number): void {
    if (end <= start || this.loadWaits.length >= MAX_LOAD_WAITS) return;
    this.loadWaits.push([start, end]);
  }

  /** Milliseconds of `[start, end]` the request spent waiting for a model to load. */
  modelLoadWaitWithin(start: number, end: number): number {
    return overlapMs(this.loadWaits, start, end);
  }
}

const storage = new AsyncLocalStorage<RequestObservation>();

/** Runs a request with its observation visible to everything it starts. */
export function observeRequest<T>(observation: RequestObservation, work: () => T): T {
  return storage.run(observation, work);
}

/** The observation of the HTTP request the caller runs in (an MCP tool call's included), if any. */
export function currentObservation(): RequestObservation | undefined {
  return storage.getStore();
}

/**
 * The observation of the request whose own work the caller does: inside the request's scope only, so background work
 * a request set off (the indexer, a group commit serving others, a log flush) is never counted as that request's.
 */
export function requestWorkObservation(): RequestObservation | undefined {
  return currentRequestSignal() === undefined ? undefined : storage.getStore();
}

/**
 * A latency measured up to now, without the time the caller's request waited for a model to load within it: the
 * figure retrieval observability and the rollout gate judge.
 * @example recordRetrievalEvent(database, { ...event, latencyMs: withoutModelLoad(performance.now() - started) }, now)
 */
export function withoutModelLoad(latencyMs: number): number {
  const observation = requestWorkObservation();
  if (observation === undefined) return latencyMs;
  const end = performance.now();
  const waited = observation.modelLoadWaitWithin(end - latencyMs, end);
  return Math.max(0, Math.round((latencyMs - waited) * 100) / 100);
}

/** A child span of the caller's request span for its own work, when tracing is on (undefined otherwise: no cost). */
export function startWorkSpan(name: string, attributes: Record<string, string | number | boolean> = {}) {
  return requestWorkObservation()?.span?.child(name, attributes);
}
