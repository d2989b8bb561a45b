import { ContextGetInputSchema } from '@memory-service/contract';
import { tool } from 'ai';
import type * as z from 'zod';
import { PARAMETER_DESCRIPTIONS as parameter, TOOL_DESCRIPTIONS } from '../tool-descriptions.js';
import { type CompactContext, compactContext } from './compact-records.js';
import { routeFields } from './route-fields.js';
import { type MemoryTool, type ToolContext, toolCallOptions } from './tool-context.js';
import { runTool } from './tool-result.js';

const getContextInput = routeFields(ContextGetInputSchema, {
  query: parameter.query,
  limit: parameter.limit,
  mode: parameter.contextMode,
});

/** The context tool. */
export interface ContextTools {
  getContext: MemoryTool<z.infer<typeof getContextInput>, CompactContext>;
}

/** Creates the `getContext` tool. */
export function createContextTools({ client, scope, timeoutMs }: ToolContext): ContextTools {
  return {
    getContext: tool({
      description: TOOL_DESCRIPTIONS.getContext,
      inputSchema: getContextInput,
      execute: ({ query, limit, mode }, { abortSignal }) => {
        const options = toolCallOptions(timeoutMs, abortSignal);
        return runTool(async () => compactContext(await client.context.get({ query, limit, mode, scope }, options())));
      },
    }),
  };
}
