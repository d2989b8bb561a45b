import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ContextGetInput } from '@memory-service/client';
import type { Scope } from '@memory-service/contract';
import type { CaptureEvent, CaptureOption } from './capture/capture-options.js';
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
  /**
   * Memory that saves itself: after each finished user turn (once, not per tool-loop step), store nothing (`'off'`,
   * default), what the user stated and the earlier reply the user accepted (`'turns'`, no model: the message's
   * statements without its questions, requests, pasted text or small talk; nothing when a memory tool wrote during
   * the turn; the answer itself never; deduplicated), or what a model extracts from the turn (`{ extract: model }`:
   * facts, preferences, decisions, corrections; a correction supersedes the stored memory). It runs after the
   * answer, never delaying or failing it; failures go to `onError` as `capture`.
   */
  capture?: CaptureOption;
  /** Told what each turn's capture stored. */
  onCapture?: (event: CaptureEvent) => void;
  /**
   * Keeps a serverless function alive for the work done after the answer (checkpoints, capture): pass your
   * platform's `waitUntil` (Vercel's from `@vercel/functions`, Cloudflare's `ctx.waitUntil`). Elsewhere, `await
   * middleware.flush()` before the process may stop.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /**
   * Milliseconds the memory work before each model call may take, end to end: the query, `context.get`, the session's
   * start, checkpoint and compaction (default 1500). Past it the model call goes ahead without memory, the memory
   * calls still in flight are aborted, and `onError` is told (operation `timeBudget`, a `MemoryTimeBudgetError`).
   * Memory calls before the model call are made once, without retries. Work after the answer is not limited by it.
   */
  timeBudgetMs?: number;
  /** Told when the memory service fails (the model call goes on without memory); default: one `console.warn`. */
  onError?: MemoryErrorHandler;
}

/** The default token budget of the injected context. */
export const DEFAULT_MAX_CONTEXT_TOKENS = 2000;
