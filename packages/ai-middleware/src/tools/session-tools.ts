import { CheckpointInputSchema, EndSessionInputSchema, StartSessionInputSchema } from '@memory-service/contract';
import { tool } from 'ai';
import type * as z from 'zod';
import { PARAMETER_DESCRIPTIONS as parameter, TOOL_DESCRIPTIONS } from '../tool-descriptions.js';
import { routeFields } from './route-fields.js';
import { type MemoryTool, type ToolContext, toolCallOptions } from './tool-context.js';
import { runTool } from './tool-result.js';

const startInput = routeFields(StartSessionInputSchema, { title: parameter.sessionTitle });
const checkpointInput = routeFields(CheckpointInputSchema, {
  sessionId: parameter.sessionId,
  content: parameter.checkpointContent,
  role: parameter.checkpointRole,
  kind: parameter.checkpointKind,
});
const endInput = routeFields(EndSessionInputSchema, { sessionId: parameter.sessionId, status: parameter.endStatus });

/** The session tools. */
export interface SessionTools {
  startSession: MemoryTool<z.infer<typeof startInput>, { sessionId: string; message: string }>;
  checkpointSession: MemoryTool<
    z.infer<typeof checkpointInput>,
    { sessionId: string; eventId: string; message: string }
  >;
  endSession: MemoryTool<
    z.infer<typeof endInput>,
    { sessionId: string; message: string; snapshot: { id: string; slug: string; summary: string | null } }
  >;
}

/** Creates the session tools: start, checkpoint, end. */
export function createSessionTools({ client, scope, timeoutMs }: ToolContext): SessionTools {
  return {
    startSession: tool({
      description: TOOL_DESCRIPTIONS.startSession,
      inputSchema: startInput,
      execute: ({ title }, { abortSignal }) =>
        runTool(async () => {
          const options = toolCallOptions(timeoutMs, abortSignal)();
          const started = await client.sessions.start(
            { title, client: '@memory-service/ai-middleware tools', scope },
            options,
          );
          return { sessionId: started.sessionId, message: started.message };
        }),
    }),
    checkpointSession: tool({
      description: TOOL_DESCRIPTIONS.checkpointSession,
      inputSchema: checkpointInput,
      execute: (input, { abortSignal }) =>
        runTool(async () => {
          const options = toolCallOptions(timeoutMs, abortSignal)();
          const { sessionId, eventId, message } = await client.sessions.checkpoint({ ...input, scope }, options);
          return { sessionId, eventId, message };
        }),
    }),
    endSession: tool({
      description: TOOL_DESCRIPTIONS.endSession,
      inputSchema: endInput,
      execute: (input, { abortSignal }) =>
        runTool(async () => {
          const options = toolCallOptions(timeoutMs, abortSignal)();
          const { sessionId, message, snapshot } = await client.sessions.end({ ...input, scope }, options);
          return { sessionId, message, snapshot: { id: snapshot.id, slug: snapshot.slug, summary: snapshot.summary } };
        }),
    }),
  };
}
