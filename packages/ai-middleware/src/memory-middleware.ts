import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { type ContextGetResult, estimateContextTokens, type LifecycleHints } from '@memory-service/client';
import { formatMemoryContext } from './context/format-memory-context.js';
import { captureStreamOutput } from './lifecycle/capture-stream-output.js';
import { createSessionLifecycle, type TurnInput } from './lifecycle/session-lifecycle.js';
import { DEFAULT_MAX_CONTEXT_TOKENS, type MemoryMiddlewareOptions } from './memory-middleware-options.js';
import { endsWithUserMessage, lastUserText, outputOfContent, toQuery, withSystemMessage } from './prompt.js';
import { createErrorReporter } from './report-error.js';
import { resolveClient } from './resolve-client.js';

/**
 * AI SDK middleware that gives a model the memory service's context: before each call it asks `context.get` with
 * the last user message and puts one system message in front of the prompt (rules, memories, conflicts, skill
 * files). With `session`, it also runs the session lifecycle. A memory failure never fails the model call.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({
 *   model: openai('gpt-4.1-mini'),
 *   middleware: memoryMiddleware({ client: { baseUrl, apiKey }, scope: { userId: 'u1' }, session: { turnBudget: 40 } }),
 * });
 * ```
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions): LanguageModelV4Middleware {
  const { scope, maxContextTokens = DEFAULT_MAX_CONTEXT_TOKENS } = options;
  const { limit, strategy, graphDepth, mode, includeRules, includeSkillFiles } = options;
  const client = resolveClient(options.client);
  const report = createErrorReporter(options.onError);
  const lifecycle =
    options.session === undefined
      ? undefined
      : createSessionLifecycle({ client, scope, options: options.session, report });
  // Calls whose user turn was recorded, so their output is recorded too (the same params object reaches wrap*).
  const recordedCalls = new WeakSet<LanguageModelV4CallOptions>();

  async function queryOf(params: LanguageModelV4CallOptions): Promise<string> {
    if (options.extractQuery === undefined) return toQuery(lastUserText(params.prompt));
    try {
      return toQuery((await options.extractQuery(params.prompt)) ?? '');
    } catch (error) {
      report('extractQuery', error);
      return toQuery(lastUserText(params.prompt));
    }
  }

  async function inject(params: LanguageModelV4CallOptions): Promise<LanguageModelV4CallOptions> {
    const query = await queryOf(params);
    const turn: TurnInput | undefined = endsWithUserMessage(params.prompt)
      ? { query, userText: lastUserText(params.prompt), prompt: params.prompt }
      : undefined;
    let hints: LifecycleHints = {};
    try {
      if (lifecycle !== undefined) hints = turn === undefined ? lifecycle.stepHints() : await lifecycle.beginTurn(turn);
    } catch (error) {
      report('sessions.start', error);
      return params;
    }
    let context: ContextGetResult;
    try {
      const retrieval = { limit, strategy, graphDepth, mode, includeRules, includeSkillFiles };
      context = await client.context.get({ ...retrieval, ...hints, query: query === '' ? undefined : query, scope });
    } catch (error) {
      report('context.get', error);
      return params;
    }
    // A later step of a tool loop has its output recorded too; a turn only when its own checkpoint went through.
    let recordOutput = lifecycle !== undefined && turn === undefined && lifecycle.sessionId() !== undefined;
    if (lifecycle !== undefined && turn !== undefined) {
      try {
        recordOutput = await lifecycle.settleTurn(turn, context.session, estimateContextTokens(context));
      } catch (error) {
        report('sessions.checkpoint', error);
      }
    }
    const sessionSummary = lifecycle?.sessionSummary(context.sessionSummary) ?? null;
    const text = formatMemoryContext(context, { maxContextTokens, sessionSummary });
    const injected = text === '' ? { ...params } : { ...params, prompt: withSystemMessage(params.prompt, text) };
    if (recordOutput) recordedCalls.add(injected);
    return injected;
  }

  return {
    specificationVersion: 'v4',
    transformParams: ({ params }) => inject(params),
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      if (lifecycle !== undefined && recordedCalls.has(params)) {
        await lifecycle.recordOutput(outputOfContent(result.content, result.usage.outputTokens.total));
      }
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      if (lifecycle === undefined || !recordedCalls.has(params)) return result;
      return { ...result, stream: result.stream.pipeThrough(captureStreamOutput(lifecycle.recordOutput)) };
    },
  };
}
