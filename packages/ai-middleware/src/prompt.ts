import type { LanguageModelV4Content, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { LIMITS } from '@memory-service/contract';
import { lastUserIndex } from './turn/turn-key.js';

/** The text of the last user message (its text parts, joined), or an empty string. */
export function lastUserText(prompt: LanguageModelV4Prompt): string {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (message?.role !== 'user') continue;
    return message.content
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('\n')
      .trim();
  }
  return '';
}

/**
 * The text of the assistant's messages between the last two user messages: the reply the last user message answers
 * ("yes, let's do that"). Read from the history the app sends, so a middleware made per request sees it too.
 */
export function previousAssistantText(prompt: LanguageModelV4Prompt): string {
  const texts: string[] = [];
  for (let index = lastUserIndex(prompt) - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (message?.role === 'user') break;
    if (message?.role !== 'assistant') continue;
    texts.unshift(message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''));
  }
  return texts.join('\n').trim();
}

/** Whether the prompt ends with a user message: a new turn, not a later step of a tool loop. */
export function endsWithUserMessage(prompt: LanguageModelV4Prompt): boolean {
  return prompt.at(-1)?.role === 'user';
}

/** A query the contract accepts: trimmed and cut to the query length limit. */
export function toQuery(text: string): string {
  return text.trim().slice(0, LIMITS.query.max);
}

/** The prompt with one system message in front; every other message keeps its place. */
export function withSystemMessage(prompt: LanguageModelV4Prompt, content: string): LanguageModelV4Prompt {
  return [{ role: 'system', content }, ...prompt];
}

/** What a model call produced that is worth keeping: its text and the tools it called. */
export interface ModelOutput {
  text: string;
  toolCalls: { toolName: string; input: string }[];
  /** Output tokens reported by the provider, when it reports them. */
  outputTokens: number | undefined;
  /** Why the call stopped (`stop`, `tool-calls`, ...); `tool-calls` means a tool loop goes on. */
  finishReason: string | undefined;
}

/** The text and tool calls of a generate result's content. */
export function outputOfContent(
  content: readonly LanguageModelV4Content[],
  outputTokens: number | undefined,
  finishReason: string | undefined,
): ModelOutput {
  const text = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const toolCalls = content.flatMap((part) =>
    part.type === 'tool-call' ? [{ toolName: part.toolName, input: part.input }] : [],
  );
  return { text, toolCalls, outputTokens, finishReason };
}
