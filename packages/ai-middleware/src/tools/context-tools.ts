import { ContextModeSchema, LIMITS, QuerySchema } from '@memory-service/contract';
import { tool } from 'ai';
import * as z from 'zod';
import { PARAMETER_DESCRIPTIONS as parameter, TOOL_DESCRIPTIONS } from '../tool-descriptions.js';
import { type CompactContext, compactContext } from './compact-records.js';
import type { MemoryTool, ToolContext } from './tool-context.js';
import { runTool } from './tool-result.js';

const getContextInput = z.object({
  query: QuerySchema.optional().describe(parameter.query),
  limit: z.number().int().min(1).max(LIMITS.retrievalLimit.max).optional().describe(parameter.limit),
  mode: ContextModeSchema.optional().describe(parameter.contextMode),
});

/** The context tool. */
export interface ContextTools {
  getContext: MemoryTool<z.infer<typeof getContextInput>, CompactContext>;
}

/** Creates the `getContext` tool. */
export function createContextTools({ client, scope }: ToolContext): ContextTools {
  return {
    getContext: tool({
      description: TOOL_DESCRIPTIONS.getContext,
      inputSchema: getContextInput,
      execute: ({ query, limit, mode }) =>
        runTool(async () => compactContext(await client.context.get({ query, limit, mode, scope }))),
    }),
  };
}
