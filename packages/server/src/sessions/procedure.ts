import type { SessionEvent } from '@memory-service/contract';
import { kebabCase } from './transcript.js';

/** Longest step line, in characters. */
const MAX_STEP_LENGTH = 200;

/** What a procedure is built from and named by. */
export interface ProcedureSource {
  /** The session's events up to the snapshot's last event, in order. */
  events: readonly SessionEvent[];
  sessionId: string;
  sessionTitle: string | null;
  snapshotId: string;
  snapshotSlug: string;
  snapshotCreatedAt: string;
  path: string;
  title?: string | undefined;
  procedureKey?: string | undefined;
  maxSteps: number;
}

/** A rendered procedural skill file. */
export interface Procedure {
  title: string;
  procedureKey: string;
  steps: string[];
  content: string;
}

/** The procedure key of a path: its file name without extension, kebab-cased (`procedure` when nothing is left). */
export function procedureKeyFromPath(path: string): string {
  const fileName = path.split(/[\\/]/).filter(Boolean).at(-1) ?? '';
  const stem =
    fileName.includes('.') && !fileName.startsWith('.') ? fileName.slice(0, fileName.lastIndexOf('.')) : fileName;
  return kebabCase(stem) || 'procedure';
}

/** One line of an event: its first non-empty line's first sentence, list markers dropped, whitespace collapsed, capped. */
export function stepLine(content: string): string {
  const firstLine =
    content
      .split('\n')
      .map((line) => line.replace(/^\s*(?:[#>*+-]+|\d+[.)])\s+/, '').trim())
      .find((line) => line !== '') ?? '';
  const sentence = firstLine.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? firstLine;
  const collapsed = sentence.replace(/\s+/g, ' ').trim();
  return collapsed.length <= MAX_STEP_LENGTH ? collapsed : `${collapsed.slice(0, MAX_STEP_LENGTH - 1).trimEnd()}…`;
}

/**
 * How procedural an event is: assistant decisions and tool calls first, then user instructions and assistant
 * messages; 0 means "not preferred" (notes, tool results, system text), -1 means a summary.
 */
function priority(event: SessionEvent): number {
  if (event.kind === 'summary') return -1;
  if (event.role === 'assistant' && (event.kind === 'decision' || event.kind === 'tool_call')) return 3;
  if (event.role === 'user' && event.kind === 'message') return 2;
  if (event.role === 'assistant' && event.kind === 'message') return 1;
  return 0;
}

/**
 * Picks the steps: meaningful events of the most preferred tier that has any (preferred kinds, else the other
 * non-summary events, else summaries split into lines), deduplicated; over `maxSteps`, the highest-priority
 * events win, and the chosen steps keep session order.
 */
export function selectSteps(events: readonly SessionEvent[], maxSteps: number): string[] {
  const meaningful = events.filter((event) => event.isMeaningful);
  const preferred = meaningful.filter((event) => priority(event) > 0);
  const others = meaningful.filter((event) => priority(event) === 0);
  let candidates: { line: string; rank: number; order: number }[];
  if (preferred.length > 0 || others.length > 0) {
    const tier = preferred.length > 0 ? preferred : others;
    candidates = tier.map((event, order) => ({ line: stepLine(event.content), rank: priority(event), order }));
  } else {
    const summaries = meaningful.filter((event) => event.kind === 'summary');
    candidates = summaries
      .flatMap((event) => event.content.split(/\n|(?<=[.!?])\s+/))
      .map((line, order) => ({ line: stepLine(line), rank: 0, order }));
  }
  const seen = new Set<string>();
  const unique = candidates.filter((candidate) => {
    const key = candidate.line.toLowerCase();
    if (candidate.line === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique
    .toSorted((left, right) => right.rank - left.rank || left.order - right.order)
    .slice(0, maxSteps)
    .toSorted((left, right) => left.order - right.order)
    .map((candidate) => candidate.line);
}

function oneLine(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Builds the procedural skill file of a snapshot: title, procedureKey, numbered steps and the source. */
export function buildProcedure(source: ProcedureSource): Procedure {
  const title = oneLine(source.title) || oneLine(source.sessionTitle) || 'Procedure';
  const procedureKey = source.procedureKey ?? procedureKeyFromPath(source.path);
  const steps = selectSteps(source.events, source.maxSteps);
  const stepList =
    steps.length === 0
      ? '_No meaningful steps were recorded._'
      : steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
  const sourceList = [
    `- Session: ${source.sessionId}`,
    `- Snapshot: ${source.snapshotId}`,
    `- Slug: ${source.snapshotSlug}`,
    `- Created: ${source.snapshotCreatedAt}`,
  ].join('\n');
  const content = [`# ${title}`, `procedureKey: ${procedureKey}`, '## Steps', stepList, '## Source', sourceList].join(
    '\n\n',
  );
  return { title, procedureKey, steps, content: `${content}\n` };
}
