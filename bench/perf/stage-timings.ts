/** Milliseconds per named stage over many calls, for a p50 / p95 table. */
export class StageTimings {
  private readonly samples = new Map<string, number[]>();

  /** Records one call's milliseconds of a stage. */
  add(stage: string, milliseconds: number): void {
    const list = this.samples.get(stage) ?? [];
    list.push(milliseconds);
    this.samples.set(stage, list);
  }

  /** Runs `work`, recording its milliseconds under `stage`. */
  async time<T>(stage: string, work: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(stage, performance.now() - started);
    }
  }

  /** Each stage's calls, p50, p95 and mean, in the order stages were first recorded. */
  rows(): Array<{ stage: string; calls: number; p50: number; p95: number; mean: number }> {
    return [...this.samples].map(([stage, values]) => {
      const sorted = [...values].sort((left, right) => left - right);
      const at = (fraction: number) =>
        sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
      const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(sorted.length, 1);
      return { stage, calls: sorted.length, p50: at(0.5), p95: at(0.95), mean };
    });
  }

  /** The table as markdown. */
  table(): string {
    const format = (value: number) => value.toFixed(2);
    const lines = ['| stage | calls | p50 ms | p95 ms | mean ms |', '| --- | ---: | ---: | ---: | ---: |'];
    for (const row of this.rows())
      lines.push(`| ${row.stage} | ${row.calls} | ${format(row.p50)} | ${format(row.p95)} | ${format(row.mean)} |`);
    return lines.join('\n');
  }
}
