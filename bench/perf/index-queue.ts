/** One reading of the background indexing queue, and which field of the observability report it came from. */
export interface QueueReading {
  count: number;
  field: string;
  atMs: number;
}

/**
 * The fields that may carry the number of memories still to index, most specific first: `queue.indexPending` counts
 * index jobs not yet run (vector and graph edges of new writes); `queue.depth` is a name the queue may take;
 * `queue.pending` counts memories without a vector for the model, so it also counts memories written before that
 * model was the default (the bench measures its decrease, not its value); `backfill.remaining` is the same count in
 * older servers.
 */
const FIELDS: Array<[section: string, field: string]> = [
  ['queue', 'indexPending'],
  ['queue', 'depth'],
  ['queue', 'pending'],
  ['backfill', 'remaining'],
];

/** Picks the pending count out of an observability report, whichever known field it has; null when none. */
export function pendingFrom(data: unknown): { count: number; field: string } | null {
  if (typeof data !== 'object' || data === null) return null;
  for (const [section, field] of FIELDS) {
    const part = (data as Record<string, unknown>)[section];
    if (typeof part !== 'object' || part === null) continue;
    const value = (part as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isFinite(value)) return { count: value, field: `${section}.${field}` };
  }
  return null;
}

/**
 * Reads the queue from `GET /management/embeddings/observability`; null when the route or every field is missing.
 * Throws on any other failure (e.g. 503 under load), which may pass. `coverageModel` names the model the report's
 * coverage figures are counted for (`queue.indexPending`, read first, is the same for any): a model every memory has a
 * vector of keeps each reading cheap (~65 ms at 100k), where a model few memories have a vector of (the encoder, on
 * a workspace embedded with hash-384) reads every memory's row on every poll (~340 ms of a database worker).
 */
export async function readQueue(baseUrl: string, apiKey: string, coverageModel?: string): Promise<QueueReading | null> {
  const query = coverageModel === undefined ? '' : `?modelId=${encodeURIComponent(coverageModel)}`;
  const response = await fetch(`${baseUrl}/api/sdk/v1/management/embeddings/observability${query}`, {
    headers: { authorization: `Bearer ${apiKey}` },
    signal: AbortSignal.timeout(60_000),
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`observability answered ${response.status}`);
  const body = (await response.json()) as { data?: unknown };
  const pending = pendingFrom(body.data);
  return pending === null ? null : { ...pending, atMs: performance.now() };
}

/**
 * Polls the queue every `pollMs` until it is back at `baseline` (the count before the writes) or `timeoutMs` passed;
 * a failed reading is skipped. Returns every reading, the first one included.
 */
export async function pollQueueUntilDrained(
  baseUrl: string,
  apiKey: string,
  {
    baseline,
    timeoutMs,
    pollMs = 1000,
    coverageModel,
  }: { baseline: number; timeoutMs: number; pollMs?: number; coverageModel?: string | undefined },
): Promise<QueueReading[]> {
  const readings: QueueReading[] = [];
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const reading = await readQueue(baseUrl, apiKey, coverageModel).catch(() => undefined);
    if (reading === null) return readings;
    if (reading !== undefined) readings.push(reading);
    if ((reading !== undefined && reading.count <= baseline) || performance.now() >= deadline) return readings;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** How fast the background indexer embedded (and linked) the memories the add load left behind. */
export interface IndexingRate {
  /** The observability field the pending count was read from (see index-queue.ts). */
  field: string;
  /** The count before the load (0 for an index-job count). */
  baseline: number;
  /** Memories still to index when the add load ended. */
  backlogAtLoadEnd: number;
  /** Memories indexed between the end of the load and the last reading. */
  drained: number;
  drainSeconds: number;
  /**
   * `drained / drainSeconds`; null when there was no backlog to time (the indexer kept up with the writes). When
   * complete, a lower bound: the queue emptied at most one poll interval before the last reading.
   */
  perSecond: number | null;
  /** Back at the baseline before the time limit. */
  complete: boolean;
  /** Acknowledged writes over the time from the load's start until the queue was empty (only when complete). */
  endToEndPerSecond: number | null;
}

function indexingRate(
  readings: QueueReading[],
  baseline: number,
  loadStartedMs: number,
  acknowledged: number,
): IndexingRate | null {
  const first = readings[0];
  const last = readings.at(-1);
  if (first === undefined || last === undefined) return null;
  const backlog = Math.max(0, first.count - baseline);
  const drained = Math.max(0, first.count - last.count);
  const drainSeconds = (last.atMs - first.atMs) / 1000;
  const complete = last.count <= baseline;
  return {
    field: first.field,
    baseline,
    backlogAtLoadEnd: backlog,
    drained,
    drainSeconds: Math.round(drainSeconds * 10) / 10,
    perSecond: backlog === 0 || drainSeconds === 0 ? null : Math.round(drained / drainSeconds),
    complete,
    endToEndPerSecond: complete ? Math.round(acknowledged / ((last.atMs - loadStartedMs) / 1000)) : null,
  };
}

/**
 * After a write load: polls the queue every 2 s until it is back at `baseline` or `timeoutMs` passed, and reports how
 * fast it drained. Each reading counts over the whole store; every 2 s keeps the polling from slowing the indexer.
 */
export async function drainAfterLoad(
  baseUrl: string,
  apiKey: string,
  options: {
    baseline: number;
    loadStartedMs: number;
    acknowledged: number;
    timeoutMs: number;
    coverageModel?: string | undefined;
  },
): Promise<IndexingRate | null> {
  const readings = await pollQueueUntilDrained(baseUrl, apiKey, {
    baseline: options.baseline,
    timeoutMs: options.timeoutMs,
    pollMs: 2000,
    coverageModel: options.coverageModel,
  });
  return indexingRate(readings, options.baseline, options.loadStartedMs, options.acknowledged);
}
