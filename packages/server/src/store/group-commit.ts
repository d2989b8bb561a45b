import { outsideRequestScope } from '../request-scope.js';

/**
 * Group commit: work submitted while a batch is running waits for it and then runs as the next batch, so concurrent
 * writers share one transaction instead of queueing for one each. A lone writer is never delayed: its batch starts
 * at once with just its item.
 */
export class GroupCommit<Item, Result> {
  private readonly waiting: Array<{
    item: Item;
    resolve: (result: Result) => void;
    reject: (error: unknown) => void;
  }> = [];
  private draining = false;

  /**
   * @param runBatch does the work of a batch; returns one result per item, in order. A thrown error fails every item
   *   of its batch (and only that batch).
   * @param maxBatch the most items one batch takes (bounds a batch's transaction and its latency).
   */
  constructor(
    private readonly runBatch: (items: Item[]) => Promise<Result[]>,
    private readonly maxBatch: number,
  ) {}

  /** Items waiting for the running batch to finish. */
  get backlog(): number {
    return this.waiting.length;
  }

  /** Adds an item to the next batch; resolves with its result once that batch is done. */
  submit(item: Item): Promise<Result> {
    const done = new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
    });
    // A batch serves every request in it, so it runs outside the deadline of the request that happened to start it.
    if (!this.draining) void outsideRequestScope(() => this.drain());
    return done;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.maxBatch);
        try {
          const results = await this.runBatch(batch.map((entry) => entry.item));
          batch.forEach((entry, index) => {
            entry.resolve(results[index] as Result);
          });
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }
}
