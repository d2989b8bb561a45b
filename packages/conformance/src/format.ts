import { checkGroups } from './groups/index.js';
import type { CheckResult, ConformanceReport } from './report.js';

/** Options of the terminal rendering. */
export interface FormatOptions {
  /** ANSI colours (the CLI turns them on for a terminal). */
  color?: boolean;
}

const SYMBOLS = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;
const COLORS = { pass: 32, fail: 31, skip: 33 } as const;

const paint = (text: string, code: number, color: boolean | undefined) =>
  color ? `\u001b[${code}m${text}\u001b[0m` : text;

const GROUP_TITLES: Record<string, string> = {
  setup: "Setup (the run's own tenants)",
  cleanup: 'Cleanup (everything the run wrote)',
  ...Object.fromEntries(checkGroups.map((group) => [group.id, group.title])),
};

/** The heading line of a group. */
export function formatGroupHeading(group: string, options: FormatOptions = {}): string {
  return paint(`${group} - ${GROUP_TITLES[group] ?? group}`, 1, options.color);
}

/** One check: status, id and title; a failure or skip adds its reason and the contract section. */
export function formatResult(result: CheckResult, options: FormatOptions = {}): string {
  const status = paint(SYMBOLS[result.status], COLORS[result.status], options.color);
  const name = result.id.slice(result.group.length + 1);
  const lines = [`  ${status}  ${name}: ${result.title}`];
  if (result.reason !== undefined)
    lines.push(`        ${result.status === 'fail' ? 'reason' : 'skipped'}: ${result.reason}`);
  if (result.status === 'fail') lines.push(`        contract: ${result.section}`);
  return lines.join('\n');
}

/** The closing lines: counts, duration, requests, and the ids of the failed checks. */
export function formatSummary(report: ConformanceReport, options: FormatOptions = {}): string {
  const { total, passed, failed, skipped } = report.summary;
  const verdict =
    failed === 0
      ? paint('CONFORMS', COLORS.pass, options.color)
      : paint('DOES NOT CONFORM', COLORS.fail, options.color);
  const lines = [
    `${verdict}: ${total} checks, ${passed} passed, ${failed} failed, ${skipped} skipped in ${(report.durationMs / 1000).toFixed(1)} s (${report.requestCount} requests)`,
  ];
  const failures = report.results.filter((result) => result.status === 'fail');
  if (failures.length > 0) lines.push(`Failed: ${failures.map((result) => result.id).join(', ')}`);
  return lines.join('\n');
}

/** The first line of a run: what is checked, and where the run writes. */
export function formatIntroduction(report: Pick<ConformanceReport, 'tool' | 'baseUrl' | 'namespace'>): string {
  return `${report.tool.name} ${report.tool.version}: checking ${report.baseUrl} (HTTP contract v1) in tenants ${report.namespace.tenantIds.join(', ')}`;
}

/** The whole report as the terminal shows it, grouped. */
export function formatReport(report: ConformanceReport, options: FormatOptions = {}): string {
  const lines = [formatIntroduction(report), ''];
  for (const group of report.groups) {
    const results = report.results.filter((result) => result.group === group);
    if (results.length === 0) continue;
    lines.push(formatGroupHeading(group, options), ...results.map((result) => formatResult(result, options)), '');
  }
  lines.push(formatSummary(report, options));
  return lines.join('\n');
}
