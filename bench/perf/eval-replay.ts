import { percentile } from './load.js';
import { generateQueries } from './seed-data.js';

/** The largest body the bench sends: just under the 1 MiB request cap, so the answer is about the replay itself. */
const BODY_BUDGET_BYTES = 1_040_000;

/** What one large eval replay request got, and how `/health` answered meanwhile. */
export interface EvalReplayReport {
  bytes: number;
  status: number;
  /** The error code of a refused request (e.g. `INVALID_REQUEST`). */
  errorCode: string | null;
  milliseconds: number;
  /** `/health` probes sent one after another while the replay ran. */
  health: { probes: number; p50: number; p95: number; p99: number; max: number };
}

/** `text` repeated to exactly `length` characters. */
function filled(text: string, length: number): string {
  return text.repeat(Math.ceil(length / text.length)).slice(0, length);
}

/**
 * The request that once held the server for 90 s: 5 scenarios of 1,000 required facts each, a 200,000-character
 * summary in the first and summaries as long as the body budget allows in the others (about 1 MB in all).
 */
export function largeEvalReplayBody(): string {
  const prose = `${generateQueries(200, 11).join('. ')}. `;
  const requiredFacts = Array.from({ length: 1000 }, (_, index) => `fact ${index}`);
  const scenario = (index: number, summaryLength: number) => ({
    id: `bench-${index}`,
    extraction: { expected: requiredFacts.slice(0, 20), observed: requiredFacts.slice(10, 30) },
    compaction: { requiredFacts, summary: filled(prose, summaryLength) },
  });
  const overhead = Buffer.byteLength(JSON.stringify({ scenarios: [0, 1, 2, 3, 4].map((index) => scenario(index, 0)) }));
  const rest = Math.floor((BODY_BUDGET_BYTES - overhead - 200_000) / 4);
  return JSON.stringify({ scenarios: [0, 1, 2, 3, 4].map((index) => scenario(index, index === 0 ? 200_000 : rest)) });
}

/**
 * Sends one large `POST /management/memory/eval/replay` and, while it runs, probes `GET /health` back to back.
 * Target: answered within 1 s, or refused with 400 by the request caps.
 */
export async function measureEvalReplay(url: string, apiKey: string): Promise<EvalReplayReport> {
  const body = largeEvalReplayBody();
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  let running = true;
  const probeTimes: number[] = [];
  const probes = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}/api/sdk/v1/health`, { headers, signal: AbortSignal.timeout(120_000) });
        await response.arrayBuffer();
      } catch {
        // A probe that failed still waited this long.
      }
      probeTimes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const started = performance.now();
  let status = 0;
  let errorCode: string | null = null;
  try {
    const response = await fetch(`${url}/api/sdk/v1/management/memory/eval/replay`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(180_000),
    });
    status = response.status;
    const text = await response.text();
    if (!response.ok) {
      try {
        errorCode = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
      } catch {
        errorCode = null;
      }
    }
  } catch (error) {
    errorCode = error instanceof Error ? error.name : 'fetch failed';
  }
  const milliseconds = Math.round(performance.now() - started);
  running = false;
  await probes;
  probeTimes.sort((a, b) => a - b);
  return {
    bytes: Buffer.byteLength(body),
    status,
    errorCode,
    milliseconds,
    health: {
      probes: probeTimes.length,
      p50: percentile(probeTimes, 0.5),
      p95: percentile(probeTimes, 0.95),
      p99: percentile(probeTimes, 0.99),
      max: percentile(probeTimes, 1),
    },
  };
}
