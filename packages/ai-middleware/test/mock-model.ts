import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A generate result with these content parts. */
export function generated(content: LanguageModelV4Content[]): LanguageModelV4GenerateResult {
  const toolCalls = content.some((part) => part.type === 'tool-call');
  return {
    content,
    finishReason: { unified: toolCalls ? 'tool-calls' : 'stop', raw: undefined },
    usage,
    warnings: [],
  };
}

/** A text generate result. */
export function textResult(text: string): LanguageModelV4GenerateResult {
  return generated([{ type: 'text', text }]);
}

/** A tool call content part. */
export function toolCall(toolName: string, input: unknown, toolCallId = `call-${toolName}`): LanguageModelV4Content {
  return { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) };
}

/** A stream result that streams `text` in small pieces. */
export function streamedText(text: string): LanguageModelV4StreamResult {
  const pieces = text.match(/.{1,4}/gs) ?? [];
  const chunks: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...pieces.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ];
  return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
}

/** A mock model that answers every generate and stream call with `reply` (a function of the call). */
export function echoModel(reply: (options: LanguageModelV4CallOptions) => string = () => 'ok') {
  return new MockLanguageModelV4({
    doGenerate: async (options) => textResult(reply(options)),
    doStream: async (options) => streamedText(reply(options)),
  });
}

/** The system messages of a recorded call. */
export function systemMessages(options: LanguageModelV4CallOptions): string[] {
  return options.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : []));
}

/** A stream result that calls one tool and finishes with `tool-calls`. */
export function streamedToolCall(toolName: string, input: unknown): LanguageModelV4StreamResult {
  const chunks: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
  ];
  return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
}
