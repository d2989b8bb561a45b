import type { Batch, PendingCall } from './inference-batch.js';
import type { InferenceModel } from './inference-messages.js';

/** Weight of the newest batch in the moving average of seconds per text. */
const THROUGHPUT_SMOOTHING = 0.3;

/**
 * The calls waiting for one local model, oldest first, with what the pool needs to batch them (how many texts wait,
 * whether the oldest has waited its window) and to estimate a retry delay (seconds per text, batches running).
 */
export class ModelQueue {
  private readonly calls: PendingCall[] = [];
  /** Texts not yet taken into a batch. */
  waitingTexts = 0;
  /** Set when the batching window of the oldest waiting text has passed; cleared when nothing waits. */
  due = false;
  timer: NodeJS.Timeout | undefined;
  readonly running = new Set<Batch>();
  /** Moving average of a batch's duration per text, in seconds; undefined until a batch has finished. */
  private secondsPerText: number | undefined;

  constructor(
    readonly key: string,
    readonly model: InferenceModel,
  ) {}

  add(call: PendingCall): void {
    this.calls.push(call);
    this.waitingTexts += call.texts.length;
  }

  /** Drops a call's texts that no batch has taken yet. */
  remove(call: PendingCall): void {
    const index = this.calls.indexOf(call);
    if (index < 0) return;
    this.calls.splice(index, 1);
    this.waitingTexts -= call.texts.length - call.next;
    if (this.waitingTexts === 0) this.due = false;
  }

  /** Takes up to `limit` waiting texts, oldest call first, as one batch. */
  take(limit: number, now: number): Batch {
    const batch: Batch = { queue: this, parts: [], texts: [], startedAt: now };
    while (batch.texts.length < limit) {
      const call = this.calls[0];
      if (call === undefined) break;
      const end = Math.min(call.texts.length, call.next + limit - batch.texts.length);
      batch.parts.push({ call, start: call.next, end });
      batch.texts.push(...call.texts.slice(call.next, end));
      call.next = end;
      if (end === call.texts.length) this.calls.shift();
    }
    this.waitingTexts -= batch.texts.length;
    if (this.waitingTexts === 0) this.due = false;
    this.running.add(batch);
    return batch;
  }

  /** Records a finished batch (its duration feeds the throughput estimate when it succeeded). */
  finish(batch: Batch, now: number, succeeded: boolean): void {
    this.running.delete(batch);
    if (!succeeded || batch.texts.length === 0) return;
    const perText = (now - batch.startedAt) / 1000 / batch.texts.length;
    this.secondsPerText =
      this.secondsPerText === undefined
        ? perText
        : THROUGHPUT_SMOOTHING * perText + (1 - THROUGHPUT_SMOOTHING) * this.secondsPerText;
  }

  /**
   * Seconds until the texts queued and running now are likely done, given `workers` threads: their count times the
   * recent seconds per text. Before any batch has finished (a model still loading), the running batches' time so far
   * per text stands in, a lower bound that grows while they run.
   */
  estimatedWaitSeconds(workers: number, now: number): number {
    let running = 0;
    let elapsedPerText = 0;
    for (const batch of this.running) {
      running += batch.texts.length;
      elapsedPerText = Math.max(elapsedPerText, (now - batch.startedAt) / 1000 / Math.max(1, batch.texts.length));
    }
    const perText = this.secondsPerText ?? elapsedPerText;
    return ((this.waitingTexts + running) * perText) / Math.max(1, workers);
  }

  /** Every call still waiting, removed from the queue (to fail them together). */
  drain(): PendingCall[] {
    const calls = this.calls.splice(0);
    this.waitingTexts = 0;
    this.due = false;
    return calls;
  }
}
