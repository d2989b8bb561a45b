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
    this.worker = spawnWorker('inference-worker');
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
