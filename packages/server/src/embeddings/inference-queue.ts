import type { Batch, PendingCall } from './inference-batch.js';
import type { InferenceModel } from './inference-messages.js';

/** Weight of the newest batch in the moving average of seconds per text. */
const THROUGHPUT_SMOOTHING = 0.3;
/** Recent model loads kept to tell the calls that waited for them (older ones no waiting call can overlap). */
const KEPT_LOADS = 8;

/** A model's loads in worker threads since start (process-wide: the pool is shared). */
export interface ModelLoads {
  count: number;
  seconds: number;
  lastSeconds: number;
}

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
  /** Loads of this model by the pool's threads so far. */
  readonly loads: ModelLoads = { count: 0, seconds: 0, lastSeconds: 0 };
  /** The most recent loads, as `performance.now()` stretches: a call that waited through one waited for the model. */
  private readonly loadStretches: Array<readonly [number, number]> = [];

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

  /**
   * Records a finished batch (its duration feeds the throughput estimate when it succeeded). `loadMs` is the part of
   * the batch's time its thread spent starting and loading the model (a thread's first batch of the model): a
   * load, which is neither the model's throughput nor any caller's retrieval time.
   */
  finish(batch: Batch, now: number, succeeded: boolean, loadMs = 0): void {
    this.running.delete(batch);
    if (loadMs > 0) this.recordLoad(batch.startedAt, loadMs);
    if (!succeeded || batch.texts.length === 0) return;
    const perText = (now - batch.startedAt - loadMs) / 1000 / batch.texts.length;
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

  /** The stretches of `[start, end]` during which this model was loading. */
  loadingWithin(start: number, end: number): Array<readonly [number, number]> {
    return this.loadStretches
      .map(([from, to]) => [Math.max(from, start), Math.min(to, end)] as const)
      .filter(([from, to]) => to > from);
  }

  private recordLoad(startedAt: number, loadMs: number): void {
    this.loads.count++;
    this.loads.seconds += loadMs / 1000;
    this.loads.lastSeconds = loadMs / 1000;
    this.loadStretches.push([startedAt, startedAt + loadMs]);
    if (this.loadStretches.length > KEPT_LOADS) this.loadStretches.shift();
  }

  /** Every call still waiting, removed from the queue (to fail them together). */
  drain(): PendingCall[] {
    const calls = this.calls.splice(0);
    this.waitingTexts = 0;
    this.due = false;
    return calls;
  }
}
