/** The targets printed next to the results (issue 24). A benchmark: missing them fails nothing. */
export const TARGETS = {
  mergePrecision: 1,
  mergeRecall: 0.9,
  newerAboveOlder: 0.95,
  conflictRecall: 0.7,
  conflictPrecision: 0.95,
  timeTop5: 0.8,
} as const;

/** Served ranks that count as a time hit: the top 5 `memories` of context/get. */
export const TIME_TOP_K = 5;
