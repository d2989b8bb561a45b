import { CATEGORY_NAMES, type Figures, type Scoreboard } from '../score.js';
import type { CaptureCounts } from './capture-counts.js';

function cell(value: number): string {
  return value.toFixed(3).padStart(7);
}

function delta(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(3)}`.padStart(7);
}

function row(label: string, imported: Figures, captured: Figures, ks: readonly number[]): string {
  const cells = [label.padEnd(14), String(imported.n).padStart(5)];
  const pairs: Array<[number, number]> = [
    ...ks.map((k): [number, number] => [imported.recall[k] ?? 0, captured.recall[k] ?? 0]),
    [imported.mrr, captured.mrr],
  ];
  for (const [before, after] of pairs) cells.push(`${cell(before)}${cell(after)}${delta(after - before)}`);
  return cells.join(' ');
}

/** Prints capture against the direct import, side by side (import, capture, difference per measure), on stdout. */
export function printComparison(input: {
  strategy: string;
  ks: readonly number[];
  imported: Scoreboard;
  captured: Scoreboard;
  importedMemories: number;
  counts: CaptureCounts;
}): void {
  const { ks, imported, captured, counts } = input;
  const measures = [...ks.map((k) => `R@${k}`), 'MRR'];
  const measureHeader = [''.padEnd(14), ''.padStart(5), ...measures.map((name) => `${name} `.padStart(14).padEnd(21))];
  const header = ['category'.padEnd(14), 'n'.padStart(5), ...measures.map(() => ' import capture   diff')];
  const errors = Object.entries(counts.errors).map(([operation, count]) => `${count} ${operation}`);
  const lines = [
    `capture vs import | strategy ${input.strategy} | each measure: import, capture, difference`,
    measureHeader.join(' ').trimEnd(),
    header.join(' '),
    ...imported
      .categories()
      .map((category) =>
        row(
          `${category} ${CATEGORY_NAMES[category] ?? ''}`.trim(),
          imported.figures(String(category)),
          captured.figures(String(category)),
          ks,
        ),
      ),
    row('overall', imported.figures('overall'), captured.figures('overall'), ks),
    `memories: import ${input.importedMemories}, capture ${counts.stored} (${counts.accepted} accepted replies; ` +
      `${counts.leftOut} user messages with nothing stored, ${counts.duplicates} duplicates skipped; ` +
      `${counts.unmapped} not mapped to a turn)`,
    `replay: ${counts.calls} model calls (${counts.unanswered} user messages with no answer), ${counts.uncaptured} ` +
      `with no capture event, errors: ${errors.length === 0 ? 'none' : errors.join(', ')}, ` +
      `${Math.round(counts.replayMs / 100) / 10} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
