import { LIMITS } from '@memory-service/contract';

/**
 * What the tool calls of one MCP HTTP request may make the server hold: a JSON-RPC
 * batch carries up to 100 calls, the SDK starts them all at once and keeps every answer until the last one is done,
 * so each route's own response cap was multiplied by 100 (one batch reached 5.3 GB and ended the process).
 *
 * The calls share a byte budget (LIMITS.mcpResponseBytes) and run at most LIMITS.mcpConcurrentCalls at a time, so one
 * request holds at most the budget plus the answers of the calls running. A call that starts once the budget is spent
 * is not run; a read whose answer does not fit in what is left is answered with an error instead of its data, and
 * spends the budget (a write's answer is always delivered: it ran, and a client that never saw its answer might
 * repeat it). The first answer of a request is always delivered whatever its size (each route caps its own), so a
 * call sent alone always succeeds.
 */
export class ResponseBudget {
  private remaining: number;
  private delivered = 0;
  private running = 0;
  /** Set when an answer did not fit: the calls after it are not run (each would only be thrown away). */
  private exhausted = false;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limitBytes: number = LIMITS.mcpResponseBytes,
    private readonly concurrency: number = LIMITS.mcpConcurrentCalls,
  ) {
    this.remaining = limitBytes;
  }

  /** Whether the budget is spent: a call that would start now is answered without running. */
  get spent(): boolean {
    return this.exhausted || (this.delivered > 0 && this.remaining <= 0);
  }

  /** Runs one call when a slot is free (calls wait in arrival order). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /**
   * Takes an answer of `bytes` from the budget; false when it does not fit (the caller answers an error instead),
   * unless `force` (a write's answer) or it is the request's first answer.
   */
  take(bytes: number, force = false): boolean {
    if (!force && this.delivered > 0 && bytes > this.remaining) {
      this.exhausted = true;
      return false;
    }
    this.remaining -= bytes;
    this.delivered++;
    return true;
  }
}
