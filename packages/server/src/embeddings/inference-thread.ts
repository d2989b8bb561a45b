import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../spawn-worker.js';
import type { Batch } from './inference-batch.js';
import type { InferenceReply, InferenceRequest } from './inference-messages.js';

/** What an inference thread tells its pool. */
export interface InferenceThreadEvents {
  /** A batch's answer came back. */
  answered(thread: InferenceThread, batch: Batch, reply: InferenceReply): void;
  /** The thread is gone (crashed, exited or stopped); `batch` is the one it was running, if any. */
  exited(thread: InferenceThread, batch: Batch | undefined): void;
  /** The thread has had nothing to do for its idle time. */
  idle(thread: InferenceThread): void;
}

/**
 * The young generation of an inference thread's heap, in MB. V8 sizes it by the machine's memory (up to 192 MB per
 * thread on a 24 GiB machine), and a local model's inference makes garbage fast (the tensors' wrappers of every
 * layer), so the thread's heap grew to what the machine allowed. Bounded, the server with the default encoder loaded
 * ended 1,200 hybrid queries at 547-576 MB against 604-638 (three runs each) and embedded as fast (4.3 vs 4.5-5.7 ms a
 * text in batches of 16, 9.5-11.5 vs 10.9-11.2 ms a lone query): BENCHMARKS.md, "Issue 27, fifth round". Bounding the
 * database workers' young generations too saved nothing more (their rows are copied out to the main thread).
 */
export const INFERENCE_YOUNG_GENERATION_MB = 16;

/**
 * One worker thread of the inference pool, running one batch at a time. It holds a reference on the event loop only
 * while a batch runs: an idle thread never keeps the process alive, a running one lets a script await its vectors.
 */
export class InferenceThread {
  private readonly worker: Worker;
  /** Keys of the models this thread has loaded (the pool prefers a thread that has the batch's model). */
  readonly loaded = new Set<string>();
  batch: Batch | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private gone = false;

  constructor(
    private readonly events: InferenceThreadEvents,
    private readonly idleMs: number,
  ) {
    this.worker = spawnWorker('inference-worker', {
      resourceLimits: { maxYoungGenerationSizeMb: INFERENCE_YOUNG_GENERATION_MB },
    });
    this.worker.unref();
    this.worker.on('message', (reply: InferenceReply) => {
      const batch = this.batch;
      this.batch = undefined;
      this.worker.unref();
      this.armIdleTimer();
      if (batch !== undefined) this.events.answered(this, batch, reply);
    });
    // The exit event follows and fails the running batch; the error itself may quote a text, so it is not kept.
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      this.gone = true;
      clearTimeout(this.idleTimer);
      const batch = this.batch;
      this.batch = undefined;
      this.events.exited(this, batch);
    });
    this.armIdleTimer();
  }

  /** Whether the thread can take a batch now. */
  get available(): boolean {
    return !this.gone && this.batch === undefined;
  }

  /** Sends a batch (the thread must be available). */
  run(id: number, batch: Batch): void {
    clearTimeout(this.idleTimer);
    this.batch = batch;
    this.worker.ref();
    const request: InferenceRequest = { id, model: batch.queue.model, texts: batch.texts };
    this.worker.postMessage(request);
  }

  /** Ends the thread (a running batch fails through `exited`). */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    await this.worker.terminate();
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.events.idle(this), this.idleMs);
    this.idleTimer.unref();
  }
}
