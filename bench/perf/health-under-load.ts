import { type LoadResult, type RequestShape, runLoad } from './load.js';

/** Requests per second of the `/health` probe: a health checker's pace, enough samples for a p99 in 10 s. */
export const HEALTH_PROBE_RATE = 50;

/** The three runs of the health-under-load measurement, in the order they were started. */
export interface HealthUnderLoad {
  health: LoadResult;
  hybrid: LoadResult;
  add: LoadResult;
}

/**
 * Three autocannon runs against one server at the same time: 16 clients on hybrid `context/get`, 8 on
 * `memories/add`, and one client probing `GET /health` at {@link HEALTH_PROBE_RATE} requests per second. The probe's
 * latency shows whether database and inference work keeps the event loop from answering.
 */
export async function measureHealthUnderLoad(
  url: string,
  apiKey: string,
  seconds: number,
  shapes: { hybrid: RequestShape; add: RequestShape },
): Promise<HealthUnderLoad> {
  const [health, hybrid, add] = await Promise.all([
    runLoad(
      'GET /health (under load)',
      url,
      apiKey,
      { method: 'GET', path: '/api/sdk/v1/health' },
      { connections: 1, seconds, rate: HEALTH_PROBE_RATE },
    ),
    runLoad('context/get hybrid (under load)', url, apiKey, shapes.hybrid, { connections: 16, seconds }),
    runLoad('memories/add (under load)', url, apiKey, shapes.add, { connections: 8, seconds }),
  ]);
  return { health, hybrid, add };
}
