import type { StrategyChoice } from './ask.js';
import type { Rate, ReadFigures, WriteFigures } from './score.js';
import { TARGETS } from './targets.js';

/** What the header line names. */
export interface RunFacts {
  embeddingModel: string;
  consolidate: boolean;
  caseCounts: Record<string, number>;
  memories: number;
  seconds: number;
  date: string;
}

const LABEL = 44;
const CELL = 14;

function cell(rate: Rate, target: number | null, extra = true): string {
  if (rate.value === null) return 'n/a'.padStart(CELL);
  const mark = target === null ? '  ' : rate.value >= target ? ' ✓' : ' ✗';
  return `${rate.value.toFixed(3)}${extra ? mark : ''}`.padStart(CELL);
}

function row(label: string, n: number | string, cells: string[], target: string, note = ''): string {
  return [label.padEnd(LABEL), String(n).padStart(5), ...cells, `  ${target}`.padEnd(11), note].join(' ').trimEnd();
}

/** The results as tables on stdout: writes once, reads per strategy, targets beside them. */
export function printReport(
  facts: RunFacts,
  writes: WriteFigures,
  reads: Partial<Record<StrategyChoice, ReadFigures>>,
): void {
  const strategies = Object.keys(reads) as StrategyChoice[];
  const counts = Object.entries(facts.caseCounts)
    .map(([behaviour, n]) => `${n} ${behaviour}`)
    .join(', ');
  const total = Object.values(facts.caseCounts).reduce((sum, n) => sum + n, 0);
  const lines = [
    `memory quality | ${facts.date} | embedding model ${facts.embeddingModel} | ${total} cases (${counts}) | ` +
      `${facts.memories} memories | ${facts.consolidate ? 'consolidate after writes' : 'no consolidate'} | ${facts.seconds} s`,
    '',
    row('writes (the same for every strategy)', 'n', ['value'.padStart(CELL)], 'target'),
    row(
      'merge recall, duplicate',
      writes.mergeRecallDuplicate.n,
      [cell(writes.mergeRecallDuplicate, TARGETS.mergeRecall)],
      `>= ${TARGETS.mergeRecall}`,
      `(${writes.mergedAtWrite.duplicate} merged at write)`,
    ),
    row(
      'merge recall, paraphrase',
      writes.mergeRecallParaphrase.n,
      [cell(writes.mergeRecallParaphrase, TARGETS.mergeRecall)],
      `>= ${TARGETS.mergeRecall}`,
      `(${writes.mergedAtWrite.paraphrase} merged at write)`,
    ),
    row(
      'merge precision',
      writes.mergePrecision.n,
      [cell(writes.mergePrecision, TARGETS.mergePrecision)],
      `= ${TARGETS.mergePrecision.toFixed(1)}`,
      `(wrong merges: ${writes.lookalikeMerged} lookalike pairs, ${writes.spuriousMerges} fillers/timeline memories)`,
    ),
    `${'older superseded by the newer'.padEnd(LABEL)}       update ${writes.update.olderSuperseded}/${writes.update.n}, ` +
      `contradiction ${writes.contradiction.olderSuperseded}/${writes.contradiction.n} ` +
      `(the newer superseded instead: ${writes.update.newerLost}, ${writes.contradiction.newerLost})`,
  ];
  if (strategies.length > 0) {
    const pick = (get: (figures: ReadFigures) => Rate) => strategies.map((s) => get(reads[s] as ReadFigures));
    const first = reads[strategies[0] as StrategyChoice] as ReadFigures;
    const conflictMet = (figures: ReadFigures) =>
      figures.conflictRecall.value !== null &&
      figures.conflictRecall.value >= TARGETS.conflictRecall &&
      (figures.conflictPrecision.value === null || figures.conflictPrecision.value >= TARGETS.conflictPrecision);
    const conflictCells = (get: (figures: ReadFigures) => Rate) =>
      strategies.map((s) => {
        const figures = reads[s] as ReadFigures;
        const rate = get(figures);
        if (rate.value === null) return 'n/a'.padStart(CELL);
        return `${rate.value.toFixed(3)}${conflictMet(figures) ? ' ✓' : ' ✗'}`.padStart(CELL);
      });
    lines.push(
      '',
      row(
        'reads (context/get)',
        'n',
        strategies.map((s) => s.padStart(CELL)),
        'target',
      ),
      row(
        'newer above older (update)',
        first.newerAboveOlder.n,
        pick((f) => f.newerAboveOlder).map((r) => cell(r, TARGETS.newerAboveOlder)),
        `>= ${TARGETS.newerAboveOlder}`,
      ),
      row(
        'conflict recall (contradiction)',
        first.conflictRecall.n,
        conflictCells((f) => f.conflictRecall),
        `>= ${TARGETS.conflictRecall}`,
        `at precision >= ${TARGETS.conflictPrecision}`,
      ),
      row(
        'conflict recall (contradiction + update)',
        first.conflictRecallWithUpdates.n,
        pick((f) => f.conflictRecallWithUpdates).map((r) => cell(r, null)),
        '',
      ),
      row(
        'conflict precision (pairs reported)',
        '',
        strategies.map((s) => {
          const rate = (reads[s] as ReadFigures).conflictPrecision;
          const value = rate.value === null ? 'n/a' : rate.value.toFixed(3);
          const mark = rate.value === null ? '' : rate.value >= TARGETS.conflictPrecision ? ' ✓' : ' ✗';
          return `${value} (${rate.n})${mark}`.padStart(CELL);
        }),
        `>= ${TARGETS.conflictPrecision}`,
      ),
      row(
        'time top-5',
        first.timeTop5.n,
        pick((f) => f.timeTop5).map((r) => cell(r, TARGETS.timeTop5)),
        `>= ${TARGETS.timeTop5}`,
      ),
      '',
      'update outcomes (newer first / older first / newer only / older only / neither): ' +
        strategies
          .map((s) => {
            const o = (reads[s] as ReadFigures).updateOutcomes;
            return `${s} ${o.newerFirst}/${o.olderFirst}/${o.newerOnly}/${o.olderOnly}/${o.neither}`;
          })
          .join(', '),
      'contradictions paired in conflicts[]: ' +
        strategies.map((s) => `${s} ${(reads[s] as ReadFigures).pairedInConflicts}`).join(', '),
      'wrong conflict pairs by behaviour: ' +
        strategies.map((s) => `${s} ${JSON.stringify((reads[s] as ReadFigures).falseConflicts)}`).join(', '),
      `time probes skipped on this date: ${first.timeSkipped}; targets not live: ${first.timeTargetNotLive}`,
      'strategy applied: ' +
        strategies
          .map((s) => {
            const figures = reads[s] as ReadFigures;
            const applied = Object.entries(figures.appliedStrategies)
              .map(([name, n]) => `${name} ${n}`)
              .join(' + ');
            return `${s} -> ${applied} (semantic fallbacks ${figures.semanticFallbacks})`;
          })
          .join(', '),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
