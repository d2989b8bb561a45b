import type { EvidenceCounts } from './locomo.js';
import { CATEGORY_NAMES, type Figures, type Scoreboard } from './score.js';
import type { GraphFacts } from './strategies.js';

/** Everything the stdout table shows. */
export interface TableInput {
  strategy: string;
  embeddingModel: string;
  ks: readonly number[];
  board: Scoreboard;
  memories: number;
  seconds: number;
  evidence: EvidenceCounts;
  semanticFallbacks: number;
  graph: GraphFacts;
  /** How many questions each strategy answered (after fallbacks), at the largest k. */
  applied: Readonly<Record<string, number>>;
}

/** How a strategy is named in the table: `default` is the one a middleware user gets without choosing. */
export function strategyLabel(strategy: string): string {
  return strategy.replace(/^default\b/, 'default (what a middleware user gets)');
}

function row(label: string, figures: Figures, ks: readonly number[]): string {
  const cells = [label.padEnd(14), String(figures.n).padStart(5)];
  for (const k of ks) cells.push((figures.recall[k] ?? 0).toFixed(3).padStart(8));
  cells.push(figures.mrr.toFixed(3).padStart(7));
  return cells.join(' ');
}

/** Prints the results table (and what the data needed: normalised, skipped, excluded) on stdout. */
export function printTable(input: TableInput): void {
  const { ks, board } = input;
  const header = ['category'.padEnd(14), 'n'.padStart(5), ...ks.map((k) => `R@${k}`.padStart(8)), 'MRR'.padStart(7)];
  const lines = [
    `strategy ${strategyLabel(input.strategy)} | embedding model ${input.embeddingModel} | ${input.memories} memories | ${input.seconds} s`,
    header.join(' '),
    ...board
      .categories()
      .map((category) =>
        row(`${category} ${CATEGORY_NAMES[category] ?? ''}`.trim(), board.figures(String(category)), ks),
      ),
    row('overall', board.figures('overall'), ks),
    `evidence: ${input.evidence.normalised} entries normalised, ${input.evidence.unreadable} unreadable and ` +
      `${input.evidence.missingTurns} missing turns skipped, ${input.evidence.itemsSkipped} items without usable ` +
      `evidence, ${input.evidence.adversarialExcluded} adversarial (category 5) excluded`,
    `semantic fallbacks: ${input.semanticFallbacks}`,
  ];
  if (input.strategy.startsWith('default')) {
    const served = Object.entries(input.applied)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([strategy, count]) => `${strategy} ${count}`)
      .join(', ');
    lines.push(`answered by (the tenants' policy default, after fallbacks): ${served === '' ? 'nothing' : served}`);
  }
  if (input.strategy === 'hybrid_graph') {
    const { graph } = input;
    lines.push(
      `graph: canary in ${graph.canaryTenants}/${graph.tenants} tenants, ${graph.expandedServed} expanded memories ` +
        `served (a quarter of each budget k is offered to expansion)` +
        (graph.blockedReasonCodes.length > 0 ? `, gate blocked: ${graph.blockedReasonCodes.join(', ')}` : ''),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
