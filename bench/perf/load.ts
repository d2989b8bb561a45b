import autocannon from 'autocannon';

/** Latency percentiles (ms) and throughput of one load run. */
export interface LoadResult {
  name: string;
  connections: number;
  requests: number;
  errors: number;
  non2xx: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

function percentile(sorted: number[], fraction: number): number {
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

/**
 * Runs autocannon against the server for `seconds` with `connections` concurrent clients, recording every
 * response time (autocannon's own summary has no p95).
 */
export async function runLoad(
  name: string,
  baseUrl: string,
  apiKey: string,
  shape: RequestShape,
  options: { connections: number; seconds: number },
): Promise<LoadResult> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        duration: options.seconds,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        requests: [
          {
            method: shape.method,
            path: shape.path,
            setupRequest: (request) => {
              if (shape.body) request.body = JSON.stringify(shape.body());
              return request;
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
    });
  });
  times.sort((a, b) => a - b);
  return {
    name,
    connections: options.connections,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requestsPerSecond: Math.round(result.requests.average),
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
  };
}
