import type { ResolvedDate, RetrievedMemory } from '@memory-service/contract';
import { CAPTURE_TAG_PREFIX } from '../capture/capture-options.js';
import { type ContextItem, type MemoryContextData, rankContextItems } from './context-items.js';
import { estimateTokens } from './estimate-tokens.js';

/** Options of `formatMemoryContext`. */
export interface FormatMemoryContextOptions {
  /** Token budget of the text (estimated at 4 characters per token); lowest-ranked items are dropped whole to fit. */
  maxContextTokens?: number;
  /** A summary of the earlier conversation (the session's last snapshot), ranked right after the rules. */
  sessionSummary?: string | null;
}

const PREAMBLE =
  'Memory from the memory service about this user and project. Use what is relevant. ' +
  "When a memory disagrees with the user's latest message, the message wins.";

/**
 * The day a memory is about (YYYY-MM-DD): when what it says happened or was said (`occurredAt`), which a server
 * older than that field does not send: then the day it was last written.
 */
function dateOf(memory: RetrievedMemory): string {
  return (memory.occurredAt ?? memory.updatedAt).slice(0, 10);
}

/** A resolved expression as the model reads it: `yesterday = 2023-05-07`, `last week = week of 2023-05-01`. */
function resolvedText({ text, date, precision }: ResolvedDate): string {
  const shown =
    precision === 'week'
      ? `week of ${date}`
      : precision === 'month'
        ? date.slice(0, 7)
        : precision === 'year'
          ? date.slice(0, 4)
          : date;
  return `${text} = ${shown}`;
}

/** What the content's relative time expressions meant when it was said, e.g. ` (yesterday = 2023-05-07)`. */
function resolvedNote(memory: RetrievedMemory): string {
  const resolved = memory.resolvedDates ?? [];
  return resolved.length === 0 ? '' : ` (${resolved.map(resolvedText).join('; ')})`;
}

function memoryLine(memory: RetrievedMemory, conflicting: ReadonlySet<string>): string {
  const flag = conflicting.has(memory.id) ? ' [CONFLICT: see Conflicting memories]' : '';
  // The tags capture adds are bookkeeping for the app, not something the model should read.
  const shown = memory.tags.filter((tag) => !tag.startsWith(CAPTURE_TAG_PREFIX));
  const tags = shown.length > 0 ? ` #${shown.join(' #')}` : '';
  return `- [${memory.type} · ${dateOf(memory)} · id ${memory.id}] ${memory.content.trim()}${resolvedNote(memory)}${tags}${flag}`;
}

function section(title: string, lines: string[]): string[] {
  return lines.length === 0 ? [] : ['', title, ...lines];
}

/** Renders kept items as one block of text; empty when nothing is kept. */
function render(items: readonly ContextItem[]): string {
  if (items.length === 0) return '';
  const conflicting = new Set<string>();
  for (const item of items) {
    if (item.kind === 'conflict') conflicting.add(item.conflict.memoryAId).add(item.conflict.memoryBId);
  }
  const lines = (kind: ContextItem['kind'], toLine: (item: ContextItem) => string) =>
    items.filter((item) => item.kind === kind).map(toLine);
  const text = (item: ContextItem): string => {
    switch (item.kind) {
      case 'rule':
      case 'memory':
        return memoryLine(item.memory, conflicting);
      case 'summary':
        return item.text;
      case 'conflict':
        return `- ${item.conflict.memoryAId} vs ${item.conflict.memoryBId}: ${item.conflict.explanation} Suggestion: ${item.conflict.suggestion}`;
      case 'skillFile':
        return `- ${item.skillFile.path}${item.skillFile.title === null ? '' : `: ${item.skillFile.title}`}`;
      case 'skillContent':
        return `### ${item.skillFile.path}\n${item.skillFile.content.trim()}`;
    }
  };
  return [
    PREAMBLE,
    ...section('Rules (always follow these):', lines('rule', text)),
    ...section('Summary of the earlier conversation:', lines('summary', text)),
    ...section('Relevant memories (most relevant first):', lines('memory', text)),
    ...section('Conflicting memories (they disagree; do not assume either is true):', lines('conflict', text)),
    ...section('Skill files (procedures you can follow):', lines('skillFile', text)),
    ...section('Skill file contents:', lines('skillContent', text)),
  ].join('\n');
}

/**
 * Formats a `context.get` result as the text of one system message: rules, the session summary, memories with
 * their type and date (the day what they say happened or was said) and what their relative dates meant then,
 * conflicts flagged as such, skill files (path and title, content when the budget allows).
 * With `maxContextTokens`, the lowest-ranked items are dropped whole until the text fits; returns an empty string
 * when there is nothing to say or nothing fits.
 *
 * @example
 * ```ts
 * const context = await client.context.get({ query: 'how do we deploy?' });
 * const system = formatMemoryContext(context, { maxContextTokens: 1500 });
 * ```
 */
export function formatMemoryContext(context: MemoryContextData, options: FormatMemoryContextOptions = {}): string {
  const items = rankContextItems(context, options.sessionSummary);
  const { maxContextTokens } = options;
  const full = render(items);
  if (maxContextTokens === undefined || estimateTokens(full) <= maxContextTokens) return full;
  // The rendered size only grows with the number of kept items, so the longest prefix that fits is found by halving.
  let fits = 0;
  let tooMany = items.length;
  while (tooMany - fits > 1) {
    const middle = Math.floor((fits + tooMany) / 2);
    if (estimateTokens(render(items.slice(0, middle))) <= maxContextTokens) fits = middle;
    else tooMany = middle;
  }
  return render(items.slice(0, fits));
}
