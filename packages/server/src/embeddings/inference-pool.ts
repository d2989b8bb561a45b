import { ApiError } from '../api-error.js';
import { requestWorkObservation } from '../observability/request-observation.js';
import { currentRequestSignal } from '../request-scope.js';
import { EmbeddingProviderError } from './embedding-errors.js';
import { type Batch, deliverBatch, failBatch, failCall, type PendingCall } from './inference-batch.js';
import { type InferenceModel, type InferenceReply, inferenceModelKey } from './inference-messages.js';
import { type ModelLoads, ModelQueue } from './inference-queue.js';
import { InferenceThread } from './inference-thread.js';

/**
 * How the pool runs: `ServerConfig`'s `embeddingWorkers`, `embeddingQueueLimit`, `embeddingBatchSize` and
 * `embeddingBatchWindowMs`.
 */
export interface InferencePoolSettings {
  workers: number;
  queueLimit: number;
  batchSize: number;
  batchWindowMs: number;
}

/** A server's hold on the shared pool (`createServices` takes one, `closeServices` gives it back). */
export interface InferencePoolLease {
  pool: InferencePool;
  /** Gives the hold back; once no server holds the pool, its idle threads stop (it restarts them on demand). */
  release(): Promise<void>;
}

/** The pool's work so far and now, for metrics (process-wide: every server of the process shares the pool). */
export interface InferencePoolStats {
  threads: number;
  /** Threads running a batch now. */
  busyThreads: number;
  /** Texts waiting for a thread, every model together. */
  waitingTexts: number;
  /** Seconds threads have spent running batches (model loads included), summed over threads. */
  busySeconds: number;
  batches: { succeeded: number; failed: number };
  /** Texts of the batches that succeeded. */
  texts: number;
  /** Each model's loads, by registry id. */
  models: Array<{ model: string } & ModelLoads>;
}

/** A thread idle this long stops (freeing its models' memory); the next batch starts a new one. */
const IDLE_MS = 5 * 60_000;
/** A retry estimate past a minute says little; clients back off further on their own. */
const MAX_RETRY_AFTER_SECONDS = 60;

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The embedding was aborted', 'AbortError');
}

/**
 * Worker threads running the local embedding models, so model inference never runs on the event loop. Texts of
 * concurrent calls for one model are merged into batches of up to `batchSize`: texts arriving while the model's
 * batches run wait at most `batchWindowMs` for company, texts of a model with nothing running go at once. A call whose
 * texts would push a model's waiting texts past `queueLimit` is refused at once with `SERVER_BUSY` and a retry
 * estimate. Each thread runs one batch at a time and loads a model on its first batch.
 */
export class InferencePool {
  private readonly queues = new Map<string, ModelQueue>();
  private readonly threads: InferenceThread[] = [];
  private leases = 0;
  private nextId = 1;
  private readonly totals = { busyMs: 0, succeeded: 0, failed: 0, texts: 0 };

  constructor(private settings: InferencePoolSettings) {}

  /** Applies settings; a smaller pool stops its extra threads once they are idle. */
  configure(settings: InferencePoolSettings): void {
    this.settings = { ...settings, workers: Math.max(1, settings.workers), batchSize: Math.max(1, settings.batchSize) };
    for (const thread of this.threads.slice(this.settings.workers)) if (thread.available) void this.retire(thread);
    this.pump();
  }

  /** Configures the pool for a server and holds it until the lease is released. */
  acquire(settings: InferencePoolSettings): InferencePoolLease {
    this.configure(settings);
    this.leases++;
    let released = false;
    return {
      pool: this,
      release: async () => {
        if (released) return;
        released = true;
        this.leases--;
        if (this.leases === 0) await Promise.all(this.threads.filter((thread) => thread.available).map(this.retire));
      },
    };
  }

  /**
   * Embeds texts with a local model in a worker; the vectors come back in the texts' order. Aborting `signal` (or
   * the deadline of the request the caller runs for) drops the texts no batch has taken yet and rejects.
   */
  embed(model: InferenceModel, texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const signals = [signal, currentRequestSignal()].filter((candidate) => candidate !== undefined);
    const abort = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    if (abort?.aborted) return Promise.reject(abortReason(abort));
    const queue = this.queueFor(model);
    // A call larger than the whole limit still runs when nothing waits before it, so it is never refused forever.
    if (queue.waitingTexts > 0 && queue.waitingTexts + texts.length > this.settings.queueLimit)
      return Promise.reject(this.busy(queue));
    // The request this call runs for learns how long it waited for the model to load, to keep it out of its latency.
    const observation = requestWorkObservation();
    const enqueuedAt = performance.now();
    return new Promise<Float32Array[]>((resolve, reject) => {
      const onAbort = () => {
        queue.remove(call);
        failCall(call, abortReason(abort as AbortSignal));
        this.pump();
      };
      const call: PendingCall = {
        texts,
        vectors: new Array<Float32Array>(texts.length),
        next: 0,
        unanswered: texts.length,
        settled: false,
        resolve: (vectors) => {
          abort?.removeEventListener('abort', onAbort);
          if (observation !== undefined)
            for (const [start, end] of queue.loadingWithin(enqueuedAt, performance.now()))
              observation.noteModelLoadWait(start, end);
          resolve(vectors);
        },
        reject: (error) => {
          abort?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      abort?.addEventListener('abort', onAbort, { once: true });
      queue.add(call);
      this.pump();
    });
  }

  /** The pool's work so far and now (cheap: counters kept as batches run). */
  stats(): InferencePoolStats {
    const now = performance.now();
    let busyMs = this.totals.busyMs;
    let waitingTexts = 0;
    const models: InferencePoolStats['models'] = [];
    for (const queue of this.queues.values()) {
      waitingTexts += queue.waitingTexts;
      for (const batch of queue.running) busyMs += now - batch.startedAt;
      models.push({ model: queue.model.name, ...queue.loads });
    }
    return {
      threads: this.threads.length,
      busyThreads: this.threads.filter((thread) => thread.batch !== undefined).length,
      waitingTexts,
      busySeconds: busyMs / 1000,
      batches: { succeeded: this.totals.succeeded, failed: this.totals.failed },
      texts: this.totals.texts,
      models,
    };
  }

  private queueFor(model: InferenceModel): ModelQueue {
    const key = inferenceModelKey(model);
    let queue = this.queues.get(key);
    if (queue === undefined) {
      queue = new ModelQueue(key, model);
      this.queues.set(key, queue);
    }
    return queue;
  }

  private busy(queue: ModelQueue): ApiError {
    const estimate = Math.ceil(queue.estimatedWaitSeconds(this.settings.workers, performance.now()));
    const retryAfterSeconds = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, estimate));
    return new ApiError(
      'SERVER_BUSY',
      `Local embedding model '${queue.model.name}' already has ${queue.waitingTexts} texts waiting, as many as the ` +
        `server queues (MEMORY_EMBEDDING_QUEUE_LIMIT=${this.settings.queueLimit}); retry in ${retryAfterSeconds} s`,
      { retryAfterSeconds, modelId: queue.model.name, waitingTexts: queue.waitingTexts },
    );
  }

  /** Starts every batch that is ready and has a thread, then arms the windows of those still gathering texts. */
  private pump(): void {
    for (;;) {
      const queue = this.readyQueue();
      if (queue === undefined) break;
      const thread = this.threadFor(queue.key);
      if (thread === undefined) break;
      thread.run(this.nextId++, queue.take(this.settings.batchSize, performance.now()));
    }
    for (const queue of this.queues.values()) this.armWindow(queue);
  }

  /**
   * A model whose texts fill a batch, have waited their window, or have no batch of the model running to wait for;
   * models take turns (the chosen one goes last). The window gathers the texts that arrive while the model's batches
   * run; a lone query (nothing of its model running) goes at once: waiting could only add the window to its latency.
   */
  private readyQueue(): ModelQueue | undefined {
    for (const [key, queue] of this.queues) {
      const ready =
        queue.waitingTexts > 0 &&
        (queue.due ||
          queue.running.size === 0 ||
          queue.waitingTexts >= this.settings.batchSize ||
          this.settings.batchWindowMs <= 0);
      if (!ready) continue;
      this.queues.delete(key);
      this.queues.set(key, queue);
      return queue;
    }
    return undefined;
  }

  /** An idle thread, one that has the model loaded first (a load can take seconds); a new one while under size. */
  private threadFor(key: string): InferenceThread | undefined {
    const idle = this.threads.filter((thread) => thread.available);
    const chosen = idle.find((thread) => thread.loaded.has(key)) ?? idle[0];
    if (chosen !== undefined || this.threads.length >= this.settings.workers) return chosen;
    const thread = new InferenceThread(
      {
        answered: (from, batch, reply) => this.answered(from, batch, reply),
        exited: (from, batch) => this.exited(from, batch),
        idle: (from) => void this.retire(from),
      },
      IDLE_MS,
    );
    this.threads.push(thread);
    return thread;
  }

  private armWindow(queue: ModelQueue): void {
    if (queue.waitingTexts === 0) {
      clearTimeout(queue.timer);
      queue.timer = undefined;
      return;
    }
    if (queue.due || queue.timer !== undefined) return;
    // Referenced: a lone caller's texts must be sent even when nothing else keeps the process running.
    queue.timer = setTimeout(() => {
      queue.timer = undefined;
      queue.due = true;
      this.pump();
    }, this.settings.batchWindowMs);
  }

  private answered(thread: InferenceThread, batch: Batch, reply: InferenceReply): void {
    const { queue } = batch;
    const now = performance.now();
    // A thread's first batch of a model also started the thread and loaded the model: that part is the load.
    const loadMs = reply.ok && !thread.loaded.has(queue.key) ? Math.max(0, now - batch.startedAt - reply.embedMs) : 0;
    queue.finish(batch, now, reply.ok, loadMs);
    this.count(batch, now, reply.ok);
    if (reply.ok) {
      thread.loaded.add(queue.key);
      deliverBatch(batch, new Float32Array(reply.vectors));
    } else {
      const error = new EmbeddingProviderError(reply.error.code, reply.error.message);
      failBatch(batch, error);
      // The model did not load: every call waiting for it would fail the same way (the registry marks it unavailable).
      if (reply.error.code === 'EMBEDDING_MODEL_UNAVAILABLE') for (const call of queue.drain()) failCall(call, error);
    }
    if (this.threads.indexOf(thread) >= this.settings.workers) void this.retire(thread);
    this.pump();
  }

  private exited(thread: InferenceThread, batch: Batch | undefined): void {
    this.forget(thread);
    if (batch !== undefined) {
      batch.queue.finish(batch, performance.now(), false);
      this.count(batch, performance.now(), false);
      const message = `The worker running local embedding model '${batch.queue.model.name}' stopped; it is replaced`;
      failBatch(batch, new EmbeddingProviderError('EMBEDDING_FAILED', message));
    }
    // Waiting texts get a new thread (the replacement) at once.
    this.pump();
  }

  private count(batch: Batch, now: number, succeeded: boolean): void {
    this.totals.busyMs += now - batch.startedAt;
    if (succeeded) {
      this.totals.succeeded++;
      this.totals.texts += batch.texts.length;
    } else this.totals.failed++;
  }

  private forget(thread: InferenceThread): void {
    const index = this.threads.indexOf(thread);
    if (index >= 0) this.threads.splice(index, 1);
  }

  private readonly retire = async (thread: InferenceThread): Promise<void> => {
    this.forget(thread);
    await thread.stop();
  };
}
