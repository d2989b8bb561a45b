import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { createBackgroundTasks } from '../background.js';
import type { CapturedTurn } from '../capture/capture-options.js';
import { captureStreamOutput } from '../lifecycle/capture-stream-output.js';
import type { SessionLifecycle } from '../lifecycle/session-lifecycle.js';
import { type ModelOutput, outputOfContent } from '../prompt.js';
import type { ErrorReporter } from '../report-error.js';
import type { TurnRecord } from '../turn/turn-record.js';

/**
 * The middleware that acts on a model call's answer, after it: the output is checkpointed in the session, and the
 * turn is captured once its last step has answered (a step ending in tool calls is not the answer). Both run in the
 * background; neither delays the answer nor fails the call. Calls the context injection did not see pass through.
 */
export function turnRecording(deps: {
  turnOfCall: WeakMap<LanguageModelV4CallOptions, TurnRecord>;
  lifecycle: SessionLifecycle | undefined;
  capture: ((turn: CapturedTurn) => Promise<void>) | undefined;
  background: ReturnType<typeof createBackgroundTasks>;
  report: ErrorReporter;
}): LanguageModelV4Middleware {
  const { turnOfCall, lifecycle, capture, background, report } = deps;

  function afterCall(record: TurnRecord | undefined, output: ModelOutput): void {
    if (record === undefined) return;
    record.toolCalls.push(...output.toolCalls);
    if (output.finishReason !== 'tool-calls') record.answered = true;
    const captureNow =
      capture !== undefined && output.finishReason !== 'tool-calls' && !record.captured && record.userText !== '';
    if (captureNow) record.captured = true;
    if (lifecycle === undefined && !captureNow) return;
    background.run(async () => {
      if (lifecycle !== undefined) await lifecycle.recordOutput(output);
      if (!captureNow || capture === undefined) return;
      try {
        const prepared = await record.prepared;
        await capture({
          userText: record.userText,
          answer: output.text,
          previousAnswer: record.previousAnswer,
          known: prepared.known,
          toolCalls: record.toolCalls,
          sessionId: lifecycle?.view().sessionId,
        });
      } catch (error) {
        report('capture', error);
      }
    });
  }

  return {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      afterCall(
        turnOfCall.get(params),
        outputOfContent(result.content, result.usage.outputTokens.total, result.finishReason.unified),
      );
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      const record = turnOfCall.get(params);
      if (record === undefined || (lifecycle === undefined && capture === undefined)) return result;
      return {
        ...result,
        stream: result.stream.pipeThrough(captureStreamOutput((output) => afterCall(record, output))),
      };
    },
  };
}
