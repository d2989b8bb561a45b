/**
 * `@memory-service/ai-middleware/format`: the formatter the middleware injects with, without the AI SDK, for any
 * place that shows what a model would see (a browser console, a script, your own prompt).
 */
export type { ContextItem, MemoryContextData } from './context/context-items.js';
export { type FormatMemoryContextOptions, formatMemoryContext } from './context/format-memory-context.js';
export { DEFAULT_MAX_CONTEXT_TOKENS } from './memory-middleware-options.js';
