import {
  CategorySchema,
  LIMITS,
  MemoryContentSchema,
  MemoryLayerSchema,
  MemoryTypeSchema,
  type OperationData,
  QuerySchema,
  TagsSchema,
} from '@memory-service/contract';
import { tool } from 'ai';
import * as z from 'zod';
import { PARAMETER_DESCRIPTIONS as parameter, RULE_WRITE_TEXTS, TOOL_DESCRIPTIONS } from '../tool-descriptions.js';
import { type CompactMemory, compactMemory } from './compact-records.js';
import { isInjectedRule, ruleField, ruleWriteRefused, writableLayer, writableType } from './rule-writes.js';
import type { MemoryTool, ToolContext } from './tool-context.js';
import { runTool } from './tool-result.js';

const memoryId = z.string().min(1).max(64).describe(parameter.memoryId);
const type = MemoryTypeSchema.optional().describe(parameter.memoryType);
const layer = MemoryLayerSchema.optional().describe(parameter.layer);
const tags = TagsSchema.optional().describe(parameter.tags);
const category = CategorySchema.optional().describe(parameter.category);
const limit = (max: number) => z.number().int().min(1).max(max).optional().describe(parameter.limit);

const searchInput = z.object({
  query: QuerySchema.min(1).describe(parameter.query),
  type,
  limit: limit(LIMITS.retrievalLimit.max),
});
/** What the model may write: `rule` is offered only when the app allows rule writes. */
const addInputFor = (allowRuleWrites: boolean) =>
  z.object({
    content: MemoryContentSchema.describe(parameter.content),
    type: writableType(allowRuleWrites),
    layer: writableLayer(allowRuleWrites),
    tags,
    category,
  });
const editInputFor = (allowRuleWrites: boolean) =>
  z.object({
    id: memoryId,
    content: MemoryContentSchema.optional(),
    type: writableType(allowRuleWrites),
    layer: writableLayer(allowRuleWrites),
    tags,
    category,
  });
const forgetInput = z.object({ id: memoryId });
const listInput = z.object({
  type,
  layer,
  tags: TagsSchema.optional().describe(parameter.filterTags),
  limit: limit(100),
});
const bulkForgetInput = z.object({
  types: z.array(MemoryTypeSchema).min(1).max(10).optional().describe(parameter.memoryType),
  tags: TagsSchema.min(1).optional().describe(parameter.filterTags),
  olderThanDays: z.number().int().min(0).max(LIMITS.olderThanDays.max).optional().describe(parameter.olderThanDays),
  pattern: z.string().min(1).max(LIMITS.bulkForgetPattern.max).optional().describe(parameter.pattern),
  all: z.boolean().optional().describe(parameter.all),
  dryRun: z.boolean().optional().describe(parameter.dryRun),
});

type Found = { memories: CompactMemory[]; count: number };

/** The tools that read and change memories. */
export interface MemoryRecordTools {
  searchMemories: MemoryTool<z.infer<typeof searchInput>, Found>;
  addMemory: MemoryTool<
    z.infer<ReturnType<typeof addInputFor>>,
    { id: string; message: string; memory: CompactMemory }
  >;
  editMemory: MemoryTool<z.infer<ReturnType<typeof editInputFor>>, { id: string; updated: true; message: string }>;
  forgetMemory: MemoryTool<z.infer<typeof forgetInput>, OperationData<'memories.forget'>>;
  listMemories: MemoryTool<z.infer<typeof listInput>, Found>;
  bulkForgetMemories: MemoryTool<z.infer<typeof bulkForgetInput>, OperationData<'memories.bulkForget'>>;
}

/**
 * Creates the tools that read and change memories. Without `allowRuleWrites`, adds and edits cannot write a rule
 * (type or layer `rule`) nor edit one: rules are injected as instructions to always follow (review finding 17).
 */
export function createMemoryRecordTools({ client, scope, allowRuleWrites }: ToolContext): MemoryRecordTools {
  return {
    searchMemories: tool({
      description: TOOL_DESCRIPTIONS.searchMemories,
      inputSchema: searchInput,
      execute: (input) =>
        runTool(async () => {
          const found = await client.memories.search({ ...input, scope });
          return { memories: found.memories.map(compactMemory), count: found.count };
        }),
    }),
    addMemory: tool({
      description: TOOL_DESCRIPTIONS.addMemory + (allowRuleWrites ? RULE_WRITE_TEXTS.allowedHint : ''),
      inputSchema: addInputFor(allowRuleWrites),
      execute: async (input) => {
        const field = allowRuleWrites ? null : ruleField(input);
        if (field !== null) return ruleWriteRefused(field);
        return runTool(async () => {
          const added = await client.memories.add({ ...input, scope });
          return { id: added.id, message: added.message, memory: compactMemory(added.memory) };
        });
      },
    }),
    editMemory: tool({
      description: TOOL_DESCRIPTIONS.editMemory,
      inputSchema: editInputFor(allowRuleWrites),
      execute: async (input) => {
        const field = allowRuleWrites ? null : ruleField(input);
        if (field !== null) return ruleWriteRefused(field);
        if (!allowRuleWrites) {
          const isRule = await runTool(() => isInjectedRule(client, scope, input.id));
          if (!isRule.ok) return isRule;
          if (isRule.data) return ruleWriteRefused('id');
        }
        return runTool(async () => {
          const { id, updated, message } = await client.memories.edit({ ...input, scope });
          return { id, updated, message };
        });
      },
    }),
    forgetMemory: tool({
      description: TOOL_DESCRIPTIONS.forgetMemory,
      inputSchema: forgetInput,
      execute: ({ id }) => runTool(() => client.memories.forget({ id, scope })),
    }),
    listMemories: tool({
      description: TOOL_DESCRIPTIONS.listMemories,
      inputSchema: listInput,
      execute: (input) =>
        runTool(async () => {
          const listed = await client.memories.list({ ...input, scope });
          return { memories: listed.memories.map(compactMemory), count: listed.count };
        }),
    }),
    bulkForgetMemories: tool({
      description: TOOL_DESCRIPTIONS.bulkForgetMemories,
      inputSchema: bulkForgetInput,
      execute: ({ types, tags, olderThanDays, pattern, all = false, dryRun }) =>
        runTool(() =>
          client.memories.bulkForget({
            ...(all ? {} : { filters: { types, tags, olderThanDays, pattern } }),
            all,
            // Forgetting is destructive: only an explicit `false` from the model really deletes.
            dryRun: dryRun !== false,
            scope,
          }),
        ),
    }),
  };
}
