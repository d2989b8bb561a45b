import autocannon from 'autocannon';

/** Latency percentiles (ms) and throughput of one load run. */
export interface LoadResult {
  name: string;
  connections: number;
  requests: number;
  errors: number;
  non2xx: number;
  requestsPerSecond: number;
  /** 2xx answers (for writes: acknowledged writes). */
  ok: number;
  /** 2xx answers per second over the run (for writes: acknowledged writes per second). */
  okPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

/** A load run with every response time kept, so runs against several servers can be merged. */
export interface LoadRun {
  result: LoadResult;
  /** Response times in ms, sorted. */
  times: number[];
  seconds: number;
}

/** The value at `fraction` of sorted `values` (nearest rank), rounded to 0.01. */
export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)]! * 100) / 100;
}

/** One request shape: method, path and a body factory (called per request, so bodies can vary). */
export interface RequestShape {
  method: 'GET' | 'POST';
  path: string;
  body?: () => unknown;
}

/** How hard a run loads the server: concurrent clients, duration and, optionally, a fixed total request rate. */
export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Requests per second over all connections (autocannon's `overallRate`); unset sends back to back. */
  rate?: number;
}

/**
 * Runs autocannon against the server for `seconds` with `connections` concurrent clients, recording every
 * response time (autocannon's own summary has no p95). Several shapes are sent in turn on each connection.
 */
export async function runLoadDetailed(
  name: string,
  baseUrl: string,
  apiKey: string,
  shapes: RequestShape | RequestShape[],
  options: LoadOptions,
): Promise<LoadRun> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        duration: options.seconds,
        ...(options.rate === undefined ? {} : { overallRate: options.rate }),
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        requests: (Array.isArray(shapes) ? shapes : [shapes]).map((shape) => ({
          method: shape.method,
          path: shape.path,
          setupRequest: (request: autocannon.Request) => {
            if (shape.body) request.body = JSON.stringify(shape.body());
            return request;
          },
        })),
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
    });
  });
  times.sort((a, b) => a - b);
  const seconds = result.duration > 0 ? result.duration : options.seconds;
  return {
    result: {
      name,
      connections: options.connections,
      requests: result.requests.total,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      requestsPerSecond: Math.round(result.requests.average),
      ok: result['2xx'],
      okPerSecond: Math.round(result['2xx'] / seconds),
      p50: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      p99: percentile(times, 0.99),
    },
    times,
    seconds,
  };
}

/** {@link runLoadDetailed} without the response times. */
export async function runLoad(
  name: string,
  baseUrl: string,
  apiKey: string,
  shapes: RequestShape | RequestShape[],
  options: LoadOptions,
): Promise<LoadResult> {
  return (await runLoadDetailed(name, baseUrl, apiKey, shapes, options)).result;
}

/** Runs that ran at the same time (e.g. one per server process) as one: rates summed, latencies merged. */
export function combineRuns(name: string, runs: LoadRun[]): LoadResult {
  const times = runs.flatMap((run) => run.times).sort((a, b) => a - b);
  const sum = (pick: (result: LoadResult) => number) => runs.reduce((total, run) => total + pick(run.result), 0);
  return {
    name,
    connections: sum((result) => result.connections),
    requests: sum((result) => result.requests),
    errors: sum((result) => result.errors),
    non2xx: sum((result) => result.non2xx),
    requestsPerSecond: sum((result) => result.requestsPerSecond),
    ok: sum((result) => result.ok),
    okPerSecond: sum((result) => result.okPerSecond),
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
  };
}
