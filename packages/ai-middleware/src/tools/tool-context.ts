import type { MemoryClient } from '@memory-service/client';
import type { Scope } from '@memory-service/contract';
import type { Tool } from 'ai';
import type { MemoryToolResult } from './tool-result.js';

/** What every tool factory gets: the client and the scope the developer fixed (the model never picks a tenant). */
export interface ToolContext {
  client: MemoryClient;
  scope: Scope | undefined;
  /** Whether the model may write rules (type or layer `rule`), which are injected as instructions to always follow. */
  allowRuleWrites: boolean;
}

/** A memory tool: an AI SDK tool whose output is the operation's data or an error the model can read. */
export type MemoryTool<Input, Data> = Tool<Input, MemoryToolResult<Data>, Record<string, unknown>>;
