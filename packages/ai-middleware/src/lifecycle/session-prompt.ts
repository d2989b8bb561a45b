import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { TranscriptEntry } from './session-options.js';

/** The index of the `turns`-th user message from the end (the first message of the session's turns), else 0. */
export function sessionStartIndex(prompt: LanguageModelV4Prompt, turns: number): number {
  let seen = 0;
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    if (prompt[index]?.role !== 'user') continue;
    seen += 1;
    if (seen === turns) return index;
  }
  return 0;
}

/**
 * The prompt of a session that carries a compaction summary: the app's system messages stay, and the messages
 * before the session's own `turns` user turns are dropped, because the summary (injected with the memory context)
 * stands for them.
 */
export function withoutSummarizedMessages(prompt: LanguageModelV4Prompt, turns: number): LanguageModelV4Prompt {
  const start = sessionStartIndex(prompt, turns);
  if (start === 0) return prompt;
  return prompt.filter((message, index) => index >= start || message.role === 'system');
}

function textOf(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content;
  return message.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

/**
 * What a compaction summarizes, read from the prompt the app sent (so no process has to remember it): the carried
 * summary, then the user and assistant texts of the session's turns before the current user message.
 */
export function sessionTranscript(
  prompt: LanguageModelV4Prompt,
  turns: number,
  carriedSummary: string | null,
): TranscriptEntry[] {
  const start = sessionStartIndex(prompt, turns);
  let end = prompt.length;
  while (end > start && prompt[end - 1]?.role !== 'user') end -= 1;
  const entries: TranscriptEntry[] = carriedSummary === null ? [] : [{ role: 'summary', text: carriedSummary }];
  for (const message of prompt.slice(start, Math.max(start, end - 1))) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const text = textOf(message);
    if (text !== '') entries.push({ role: message.role, text });
  }
  return entries;
}
