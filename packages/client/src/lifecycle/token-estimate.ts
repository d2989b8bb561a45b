import type { ContextGetData } from '@memory-service/contract';

/** Characters per token of the estimate: the usual rule of thumb for English text. */
export const CHARACTERS_PER_TOKEN = 4;

/** Fixed token overheads per returned item (the framing a prompt wraps around it), on top of its text. */
export const TOKEN_OVERHEADS = {
  /** The context block itself: headings and separators. */
  context: 16,
  /** A rule or memory: its type, tags and list marker. */
  memory: 8,
  /** A skill file: its path and title line. */
  skillFile: 12,
  /** A conflict note. */
  conflict: 8,
} as const;

function tokensOf(text: string | null | undefined): number {
  return Math.ceil((text ?? '').length / CHARACTERS_PER_TOKEN);
}

/**
 * Estimates the tokens the returned context takes in a prompt: characters / 4 plus fixed per-item overheads over
 * the rules, memories (each id once), skill files and conflicts.
 */
export function estimateContextTokens(context: Partial<ContextGetData>): number {
  let tokens = TOKEN_OVERHEADS.context;
  const seen = new Set<string>();
  for (const memory of [...(context.rules ?? []), ...(context.memories ?? [])]) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    tokens += TOKEN_OVERHEADS.memory + tokensOf(memory.content) + tokensOf(memory.tags?.join(' '));
  }
  for (const skillFile of context.skillFiles ?? []) {
    tokens += TOKEN_OVERHEADS.skillFile + tokensOf(skillFile.path) + tokensOf(skillFile.content);
  }
  for (const conflict of context.conflicts ?? []) {
    tokens += TOKEN_OVERHEADS.conflict + tokensOf(conflict.explanation) + tokensOf(conflict.suggestion);
  }
  return tokens;
}
