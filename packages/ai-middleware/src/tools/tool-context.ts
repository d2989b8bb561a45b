import type { MemoryClient, RequestOptions } from '@memory-service/client';
import type { Scope } from '@memory-service/contract';
import type { Tool } from 'ai';
import type { MemoryToolResult } from './tool-result.js';

/** What every tool factory gets: the client and the scope the developer fixed (the model never picks a tenant). */
export interface ToolContext {
  client: MemoryClient;
  scope: Scope | undefined;
  /** Whether the model may write rules (type or layer `rule`), which are injected as instructions to always follow. */
  allowRuleWrites: boolean;
  /** Milliseconds one tool call's memory calls may take in all, retries included. */
  timeoutMs: number;
}

/** The default time one memory tool call may take (its memory calls and their retries); past it the tool answers `TIMEOUT`. */
export const DEFAULT_TOOL_TIMEOUT_MS = 5_000;

/**
 * The request options of one tool call's memory calls, as a function called before each: the model call's abort
 * signal, and what is left of the tool's `timeoutMs` as the call's total, so a tool that makes two calls (a rule check,
 * then the edit) still answers within it.
 */
export function toolCallOptions(timeoutMs: number, abortSignal: AbortSignal | undefined): () => RequestOptions {
  const endsAt = performance.now() + timeoutMs;
  return () => {
    const totalTimeoutMs = Math.max(1, Math.ceil(endsAt - performance.now()));
    return { signal: abortSignal, totalTimeoutMs, timeoutMs: totalTimeoutMs };
  };
}

/** A memory tool: an AI SDK tool whose output is the operation's data or an error the model can read. */
export type MemoryTool<Input, Data> = Tool<Input, MemoryToolResult<Data>, Record<string, unknown>>;
