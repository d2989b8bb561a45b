import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { ModelOutput } from '../prompt.js';

/**
 * A pass-through stream that collects the streamed text, tool calls, output token count and finish reason, and
 * hands them to `onEnd` when the stream finishes, without waiting for what `onEnd` starts. An aborted or failed
 * stream reports nothing.
 */
export function captureStreamOutput(
  onEnd: (output: ModelOutput) => void,
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  const output: ModelOutput = { text: '', toolCalls: [], outputTokens: undefined, finishReason: undefined };
  return new TransformStream({
    transform(part, controller) {
      if (part.type === 'text-delta') output.text += part.delta;
      else if (part.type === 'tool-call') output.toolCalls.push({ toolName: part.toolName, input: part.input });
      else if (part.type === 'finish') {
        output.outputTokens = part.usage.outputTokens.total;
        output.finishReason = part.finishReason.unified;
      }
      controller.enqueue(part);
    },
    flush: () => onEnd(output),
  });
}
