import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { isMemoryServiceCall } from '../capture/internal-call.js';
import { withoutSummarizedMessages } from '../lifecycle/session-prompt.js';
import { endsWithUserMessage, lastUserText, previousAssistantText, withSystemMessage } from '../prompt.js';
import type { TurnCache } from '../turn/turn-cache.js';
import { turnKeyOf } from '../turn/turn-key.js';
import type { PreparedTurn, TurnRecord } from '../turn/turn-record.js';

/**
 * The middleware that gives a model call its turn's memory: the turn is prepared once (`prepare`) and its steps and
 * a provider's retries reuse it; the prompt gets one system message in front, and a compacted session's summary
 * stands for the messages before the session's own turns. Each injected call's turn is left in `turnOfCall` for the
 * middlewares that act on the answer.
 */
export function contextInjection(deps: {
  prepare: (params: LanguageModelV4CallOptions) => Promise<PreparedTurn>;
  turns: TurnCache<TurnRecord>;
  turnOfCall: WeakMap<LanguageModelV4CallOptions, TurnRecord>;
}): LanguageModelV4Middleware {
  const { prepare, turns, turnOfCall } = deps;

  function turnOf(params: LanguageModelV4CallOptions): TurnRecord {
    const key = turnKeyOf(params.prompt);
    const create = (): TurnRecord => ({
      prepared: prepare(params),
      userText: lastUserText(params.prompt),
      previousAnswer: previousAssistantText(params.prompt),
      toolCalls: [],
      answered: false,
      captured: false,
    });
    // A prompt ending with the user's message after the turn with the same words was answered is a new turn (an app
    // that sends only the last message, "yes" twice); before that, it is the same turn again (a provider retry).
    const newTurn = endsWithUserMessage(params.prompt);
    return key === undefined ? create() : turns.getOrCreate(key, create, (cached) => !(newTurn && cached.answered));
  }

  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      if (isMemoryServiceCall(params)) return params;
      const record = turnOf(params);
      const prepared = await record.prepared;
      // A turn prepared under an aborted call is prepared again if the app retries it.
      const key = turnKeyOf(params.prompt);
      if (key !== undefined && params.abortSignal?.aborted === true) turns.delete(key);
      let prompt = params.prompt;
      if (prepared.view?.summary != null) prompt = withoutSummarizedMessages(prompt, prepared.view.turns);
      if (prepared.text !== '') prompt = withSystemMessage(prompt, prepared.text);
      const injected = { ...params, prompt };
      turnOfCall.set(injected, record);
      return injected;
    },
  };
}
