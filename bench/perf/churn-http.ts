/** The server under test and the key its requests carry. */
export interface Target {
  url: string;
  apiKey: string;
}

/** How long one request may take before the soak counts it as `timeout` (a large MCP batch takes seconds). */
const REQUEST_TIMEOUT_MS = 120_000;

/** An answer read at most up to `capBytes` (a runaway answer is drained and counted, never held). */
export interface CappedAnswer {
  status: number;
  bytes: number;
  /** The body, or null when it was larger than the cap. */
  text: string | null;
  milliseconds: number;
}

/** POSTs a JSON body and reads the answer up to `capBytes`; throws on a network error or timeout. */
export async function postJson(
  target: Target,
  path: string,
  body: unknown,
  { capBytes = 64 * 1024 * 1024, accept = 'application/json' } = {},
): Promise<CappedAnswer> {
  const started = performance.now();
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of response.body ?? []) {
    bytes += chunk.byteLength;
    if (bytes <= capBytes) chunks.push(Buffer.from(chunk));
    else chunks.length = 0;
  }
  const text = bytes <= capBytes ? Buffer.concat(chunks).toString('utf8') : null;
  return { status: response.status, bytes, text, milliseconds: performance.now() - started };
}

/** The outcome of a network failure: `timeout`, or `network <cause>` (e.g. `network ECONNREFUSED`). */
export function networkOutcome(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return `network ${cause?.code ?? (error instanceof Error ? error.name : 'error')}`;
}

/**
 * Calls a route of the HTTP API and names its outcome: the status, plus the envelope's error code when it is not
 * ok (`200`, `503 SERVER_BUSY`, `500 INTERNAL_ERROR`), or the network failure.
 */
export async function callRoute(target: Target, path: string, body: unknown): Promise<string> {
  try {
    const answer = await postJson(target, path, body);
    if (answer.status >= 200 && answer.status < 300) return String(answer.status);
    const code = (() => {
      try {
        return (JSON.parse(answer.text ?? '') as { error?: { code?: string } }).error?.code ?? '';
      } catch {
        return '';
      }
    })();
    return `${answer.status} ${code}`.trim();
  } catch (error) {
    return networkOutcome(error);
  }
}

/** Answers counted by kind of request and outcome. */
export class OutcomeTally {
  readonly counts: Record<string, Record<string, number>> = {};

  record(kind: string, outcome: string, times = 1): void {
    this.counts[kind] ??= {};
    const outcomes = this.counts[kind];
    outcomes[outcome] = (outcomes[outcome] ?? 0) + times;
  }

  /** How many answers, over every kind, had an outcome that `matches`. */
  total(matches: (outcome: string) => boolean): number {
    let sum = 0;
    for (const outcomes of Object.values(this.counts))
      for (const [outcome, count] of Object.entries(outcomes)) if (matches(outcome)) sum += count;
    return sum;
  }
}

/** A 5xx other than the retryable 503 SERVER_BUSY, or no answer at all: what the soak must never see. */
export function isFailure(outcome: string): boolean {
  if (outcome === '503 SERVER_BUSY') return false;
  return /^5\d\d/.test(outcome) || outcome.startsWith('network') || outcome === 'timeout';
}
