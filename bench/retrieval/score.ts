/** LoCoMo's category numbers (README of the benchmark data). */
export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

/** Recall at each k and MRR, averaged over `n` items. */
export interface Figures {
  n: number;
  recall: Record<number, number>;
  mrr: number;
}

/** Accumulates per-item scores overall and per category. */
export class Scoreboard {
  private readonly sums = new Map<string, { n: number; recall: Record<number, number>; reciprocal: number }>();

  constructor(readonly ks: readonly number[]) {}

  private bucket(key: string) {
    let bucket = this.sums.get(key);
    if (bucket === undefined) {
      bucket = { n: 0, recall: Object.fromEntries(this.ks.map((k) => [k, 0])), reciprocal: 0 };
      this.sums.set(key, bucket);
    }
    return bucket;
  }

  /**
   * Scores one item: recall@k = share of its evidence turns among the top k ids; reciprocal rank of the first
   * evidence turn in the returned list (0 when none was returned; the list is as long as the largest k).
   */
  add(category: number, evidence: readonly string[], ranked: readonly string[]): void {
    this.addPerK(category, evidence, () => ranked, ranked);
  }

  /** Scores one item whose list depends on k (a budget of k results); MRR comes from `longest`. */
  addPerK(
    category: number,
    evidence: readonly string[],
    rankedFor: (k: number) => readonly string[],
    longest: readonly string[],
  ): void {
    const wanted = new Set(evidence);
    const first = longest.findIndex((id) => wanted.has(id));
    for (const key of ['overall', String(category)]) {
      const bucket = this.bucket(key);
      bucket.n += 1;
      for (const k of this.ks) {
        const found = rankedFor(k)
          .slice(0, k)
          .filter((id) => wanted.has(id)).length;
        bucket.recall[k] = (bucket.recall[k] ?? 0) + found / wanted.size;
      }
      bucket.reciprocal += first === -1 ? 0 : 1 / (first + 1);
    }
  }

  /** Averages for a key (`overall` or a category number). */
  figures(key: string): Figures {
    const bucket = this.bucket(key);
    const mean = (sum: number) => (bucket.n === 0 ? 0 : Math.round((sum / bucket.n) * 10_000) / 10_000);
    return {
      n: bucket.n,
      recall: Object.fromEntries(this.ks.map((k) => [k, mean(bucket.recall[k] ?? 0)])),
      mrr: mean(bucket.reciprocal),
    };
  }

  /** The category numbers scored, ascending. */
  categories(): number[] {
    return [...this.sums.keys()]
      .filter((key) => key !== 'overall')
      .map(Number)
      .sort((left, right) => left - right);
  }
}

/** Figures as the JSON line names them: `recallAt5`, `recallAt10`, ..., `mrr`, `n`. */
export function asJson(figures: Figures): Record<string, number> {
  return {
    ...Object.fromEntries(Object.entries(figures.recall).map(([k, value]) => [`recallAt${k}`, value])),
    mrr: figures.mrr,
    n: figures.n,
  };
}
