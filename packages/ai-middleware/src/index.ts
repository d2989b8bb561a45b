export { DEFAULT_TIME_BUDGET_MS } from './budget/time-budget.js';
export { MemoryTimeBudgetError } from './budget/time-budget-error.js';
export {
  CAPTURE_TAG_PREFIX,
  type CaptureEvent,
  type CaptureOption,
  type ExtractCapture,
} from './capture/capture-options.js';
export { isMemoryServiceCall } from './capture/internal-call.js';
export type { ContextItem, MemoryContextData } from './context/context-items.js';
export { type FormatMemoryContextOptions, formatMemoryContext } from './context/format-memory-context.js';
export type { SessionEvent, SessionOptions, TranscriptEntry } from './lifecycle/session-options.js';
export { summarizeTranscript } from './lifecycle/summarize-transcript.js';
export {
  createMemoryManagement,
  type MemoryManagement,
  type MemoryManagementOptions,
} from './management.js';
export { type MemoryMiddleware, memoryMiddleware } from './memory-middleware.js';
export { DEFAULT_MAX_CONTEXT_TOKENS, type MemoryMiddlewareOptions } from './memory-middleware-options.js';
export { type MemoryErrorHandler, type MemoryOperation, warnOnMemoryError } from './report-error.js';
export type { MemoryClientInput } from './resolve-client.js';
export { PARAMETER_DESCRIPTIONS, TOOL_DESCRIPTIONS } from './tool-descriptions.js';
export type { CompactContext, CompactMemory, CompactSkillFile } from './tools/compact-records.js';
export {
  DEFAULT_MEMORY_TOOLS,
  type DefaultMemoryToolName,
  type MemoryToolName,
  type MemoryToolSet,
  type MemoryToolsOptions,
  memoryTools,
} from './tools/memory-tools.js';
export { DEFAULT_TOOL_TIMEOUT_MS, type MemoryTool } from './tools/tool-context.js';
export type { MemoryToolError, MemoryToolResult } from './tools/tool-result.js';
