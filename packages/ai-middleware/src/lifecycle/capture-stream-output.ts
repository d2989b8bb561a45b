import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { ModelOutput } from '../prompt.js';

/**
 * A pass-through stream that collects the streamed text, tool calls and output token count, and hands them to
 * `onEnd` when the stream finishes (the stream closes once `onEnd` has settled). An aborted or failed stream
 * reports nothing.
 */
export function captureStreamOutput(
  onEnd: (output: ModelOutput) => Promise<void>,
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  const output: ModelOutput = { text: '', toolCalls: [], outputTokens: undefined };
  return new TransformStream({
    transform(part, controller) {
      if (part.type === 'text-delta') output.text += part.delta;
      else if (part.type === 'tool-call') output.toolCalls.push({ toolName: part.toolName, input: part.input });
      else if (part.type === 'finish') output.outputTokens = part.usage.outputTokens.total;
      controller.enqueue(part);
    },
    flush: () => onEnd(output),
  });
}
