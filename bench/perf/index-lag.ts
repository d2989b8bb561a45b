import { readQueue } from './index-queue.js';
import { percentile } from './load.js';

/** How long acknowledged adds waited to be found by meaning while adds arrived at a steady rate. */
export interface IndexLag {
  /** Adds per second sent (open loop: on schedule, whatever the answers take). */
  rate: number;
  seconds: number;
  acknowledged: number;
  /** Lag from an add's acknowledgement to its index job being done, ms (upper bounds: one poll interval). */
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Adds whose job was still queued when the measurement ended (their lag is counted up to then). */
  unindexed: number;
  pollMs: number;
}

/**
 * Sends `memories/add` at `rate` per second for `seconds` (open loop, each on its own schedule) and polls the index
 * queue every `pollMs` meanwhile and up to `settleSeconds` after. The queue is worked oldest first, so the i-th
 * acknowledged add of the run is indexed once the queue has shrunk past it: at a reading, (adds acknowledged + the
 * backlog before the run - pending) jobs of the run are done. Its lag is the first such reading minus its
 * acknowledgement.
 */
export async function measureIndexLag(
  url: string,
  apiKey: string,
  options: {
    rate: number;
    seconds: number;
    body: () => unknown;
    pollMs?: number;
    settleSeconds?: number;
    /** The model the readings' coverage figures are counted for (`readQueue`). */
    coverageModel?: string;
  },
): Promise<IndexLag> {
  const { rate, seconds, pollMs = 500, settleSeconds = 60, coverageModel } = options;
  const before = await readQueue(url, apiKey, coverageModel);
  if (before === null) throw new Error('the server reports no index queue');
  const acknowledgedAt: number[] = [];
  /** Readings: time, and how many of the run's adds were done by then. */
  const readings: Array<{ atMs: number; done: number }> = [];
  const send = async () => {
    const response = await fetch(`${url}/api/sdk/v1/memories/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(options.body()),
      signal: AbortSignal.timeout(60_000),
    });
    await response.arrayBuffer();
    if (response.ok) acknowledgedAt.push(performance.now());
  };
  const started = performance.now();
  const sends: Array<Promise<void>> = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const acknowledged = acknowledgedAt.length;
      const reading = await readQueue(url, apiKey, coverageModel).catch(() => null);
      if (reading !== null) readings.push({ atMs: reading.atMs, done: acknowledged + before.count - reading.count });
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  })();
  for (let index = 0; index < rate * seconds; index++) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(send().catch(() => undefined));
  }
  await Promise.all(sends);
  const settleUntil = performance.now() + settleSeconds * 1000;
  while (performance.now() < settleUntil && (readings.at(-1)?.done ?? 0) < acknowledgedAt.length)
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  polling = false;
  await poller;
  const end = performance.now();
  const lags: number[] = [];
  let unindexed = 0;
  let reading = 0;
  acknowledgedAt.forEach((at, index) => {
    while (reading < readings.length && (readings[reading]!.done < index + 1 || readings[reading]!.atMs < at))
      reading++;
    const doneAt = readings[reading]?.atMs;
    if (doneAt === undefined) unindexed++;
    lags.push((doneAt ?? end) - at);
  });
  lags.sort((left, right) => left - right);
  return {
    rate,
    seconds,
    acknowledged: acknowledgedAt.length,
    p50Ms: Math.round(percentile(lags, 0.5)),
    p95Ms: Math.round(percentile(lags, 0.95)),
    maxMs: Math.round(lags.at(-1) ?? Number.NaN),
    unindexed,
    pollMs,
  };
}
