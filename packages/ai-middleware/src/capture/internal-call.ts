import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

const MARKER = 'memoryServiceInternal';

/**
 * Options of the middleware's own model calls (extraction). The marker travels in `providerOptions`, which
 * providers ignore for names other than their own, so that when the extraction model is itself wrapped with this
 * middleware, its calls are neither given memory context nor captured.
 */
export const INTERNAL_CALL_OPTIONS = { providerOptions: { [MARKER]: { internal: true } } } as const;

/**
 * Whether a model call is one of the middleware's own (an extraction): for scripted test models that play both the
 * chat model and the extraction model.
 */
export function isMemoryServiceCall(params: LanguageModelV4CallOptions): boolean {
  return params.providerOptions?.[MARKER]?.internal === true;
}
