import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ContextGetInput } from '@memory-service/client';
import type { Scope } from '@memory-service/contract';
import type { SessionOptions } from './lifecycle/session-options.js';
import type { MemoryErrorHandler } from './report-error.js';
import type { MemoryClientInput } from './resolve-client.js';

/** Options of `memoryMiddleware`. */
export interface MemoryMiddlewareOptions
  extends Pick<ContextGetInput, 'limit' | 'strategy' | 'graphDepth' | 'mode' | 'includeRules' | 'includeSkillFiles'> {
  /** A client from `@memory-service/client`, or `{ baseUrl, apiKey }` to make one. */
  client: MemoryClientInput;
  /** Tenant, user and project of every memory call. */
  scope?: Scope;
  /** Token budget of the injected context (default 2000); the lowest-ranked items are dropped whole to fit. */
  maxContextTokens?: number;
  /** Picks the retrieval query from the prompt; by default the last user message's text. */
  extractQuery?: (prompt: LanguageModelV4Prompt) => string | undefined | PromiseLike<string | undefined>;
  /** Session lifecycle: checkpoints, compaction triggers, summaries. Off when omitted. */
  session?: SessionOptions;
  /** Told when the memory service fails (the model call goes on without memory); default: one `console.warn`. */
  onError?: MemoryErrorHandler;
}

/** The default token budget of the injected context. */
export const DEFAULT_MAX_CONTEXT_TOKENS = 2000;
