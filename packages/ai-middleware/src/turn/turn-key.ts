import type { LanguageModelV4Prompt } from '@ai-sdk/provider';

// FNV-1a over UTF-16 code units, in two 32-bit lanes: a short, stable fingerprint with no platform dependency.
function fingerprint(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 7), 0x01000193) >>> 0;
  }
  return `${high.toString(36)}${low.toString(36)}`;
}

/** The index of the prompt's last user message, or -1. */
export function lastUserIndex(prompt: LanguageModelV4Prompt): number {
  for (let index = prompt.length - 1; index >= 0; index -= 1) if (prompt[index]?.role === 'user') return index;
  return -1;
}

/**
 * Identifies a user turn: the conversation up to and including its last user message. The later steps of a tool
 * loop (assistant tool calls and tool results after that message) share the key, so they share the turn's context;
 * a new user message makes a new key. Undefined when the prompt has no user message.
 */
export function turnKeyOf(prompt: LanguageModelV4Prompt): string | undefined {
  const last = lastUserIndex(prompt);
  if (last === -1) return undefined;
  return `${last}:${fingerprint(JSON.stringify(prompt.slice(0, last + 1)))}`;
}
