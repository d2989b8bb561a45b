import { ListSkillFilesInputSchema, UpsertSkillFileInputSchema } from '@memory-service/contract';
import { tool } from 'ai';
import type * as z from 'zod';
import { PARAMETER_DESCRIPTIONS as parameter, TOOL_DESCRIPTIONS } from '../tool-descriptions.js';
import { type CompactSkillFile, compactSkillFile } from './compact-records.js';
import { routeFields } from './route-fields.js';
import { type MemoryTool, type ToolContext, toolCallOptions } from './tool-context.js';
import { runTool } from './tool-result.js';

const upsertInput = routeFields(UpsertSkillFileInputSchema, {
  path: parameter.skillPath,
  content: parameter.skillContent,
});
const listInput = routeFields(ListSkillFilesInputSchema, { limit: parameter.limit });

/** The skill file tools. */
export interface SkillTools {
  upsertSkillFile: MemoryTool<
    z.infer<typeof upsertInput>,
    { skillFile: CompactSkillFile; created: boolean; message: string }
  >;
  listSkillFiles: MemoryTool<z.infer<typeof listInput>, { skillFiles: CompactSkillFile[]; count: number }>;
}

/** Creates the skill file tools. */
export function createSkillTools({ client, scope, timeoutMs }: ToolContext): SkillTools {
  return {
    upsertSkillFile: tool({
      description: TOOL_DESCRIPTIONS.upsertSkillFile,
      inputSchema: upsertInput,
      execute: (input, { abortSignal }) =>
        runTool(async () => {
          const options = toolCallOptions(timeoutMs, abortSignal)();
          const { skillFile, created, message } = await client.skills.upsert({ ...input, scope }, options);
          return { skillFile: compactSkillFile(skillFile), created, message };
        }),
    }),
    listSkillFiles: tool({
      description: TOOL_DESCRIPTIONS.listSkillFiles,
      inputSchema: listInput,
      execute: ({ limit }, { abortSignal }) =>
        runTool(async () => {
          const options = toolCallOptions(timeoutMs, abortSignal)();
          const listed = await client.skills.list({ limit, scope }, options);
          return { skillFiles: listed.skillFiles.map(compactSkillFile), count: listed.count };
        }),
    }),
  };
}
