import {
  AddMemoryInputSchema,
  BulkForgetFiltersSchema,
  BulkForgetInputSchema,
  EditMemoryInputSchema,
  ForgetMemoryInputSchema,
  ListMemoriesInputSchema,
  type OperationData,
  SearchMemoriesInputSchema,
} from '@memory-service/contract';
import { tool } from 'ai';
import type * as z from 'zod';
import { PARAMETER_DESCRIPTIONS as parameter, RULE_WRITE_TEXTS, TOOL_DESCRIPTIONS } from '../tool-descriptions.js';
import { type CompactMemory, compactMemory } from './compact-records.js';
import { routeFields } from './route-fields.js';
import { injectedRuleRefusal, ruleField, ruleWriteRefused, writableLayer, writableType } from './rule-writes.js';
import { type MemoryTool, type ToolContext, toolCallOptions } from './tool-context.js';
import { runTool } from './tool-result.js';

const searchInput = routeFields(SearchMemoriesInputSchema, {
  query: parameter.query,
  type: parameter.memoryType,
  limit: parameter.limit,
});
/** What the model may write: `rule` is offered only when the app allows rule writes. */
const addInputFor = (allowRuleWrites: boolean) =>
  routeFields(AddMemoryInputSchema, {
    content: parameter.content,
    tags: parameter.tags,
    category: parameter.category,
  }).extend({ type: writableType(allowRuleWrites), layer: writableLayer(allowRuleWrites) });
const editInputFor = (allowRuleWrites: boolean) =>
  routeFields(EditMemoryInputSchema, {
    id: parameter.memoryId,
    content: parameter.content,
    tags: parameter.tags,
    category: parameter.category,
  }).extend({ type: writableType(allowRuleWrites), layer: writableLayer(allowRuleWrites) });
const forgetInput = routeFields(ForgetMemoryInputSchema, { id: parameter.memoryId });
const listInput = routeFields(ListMemoriesInputSchema, {
  type: parameter.memoryType,
  layer: parameter.layer,
  limit: parameter.limit,
}).extend({
  // The route also takes tags as one comma-separated string; the model gets the list form only.
  tags: ListMemoriesInputSchema.shape.tags.unwrap().options[1].optional().describe(parameter.filterTags),
});
/** The route's filters, flattened for the model, with `all`; and a dry run unless the model says otherwise. */
const bulkForgetInput = routeFields(BulkForgetFiltersSchema, {
  types: parameter.memoryType,
  tags: parameter.filterTags,
  olderThanDays: parameter.olderThanDays,
  pattern: parameter.pattern,
}).extend({
  all: BulkForgetInputSchema.shape.all.describe(parameter.all),
  dryRun: BulkForgetInputSchema.shape.dryRun.removeDefault().default(true).describe(parameter.dryRun),
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
 * (type or layer `rule`), and edits and forgets cannot change one, bulk forgets cannot name the type: rules are
 * injected as instructions to always follow, so a model reading untrusted text must not plant one, and one user's
 * model must not remove the rules the app set for every user.
 */
export function createMemoryRecordTools({ client, scope, allowRuleWrites, timeoutMs }: ToolContext): MemoryRecordTools {
  return {
    searchMemories: tool({
      description: TOOL_DESCRIPTIONS.searchMemories,
      inputSchema: searchInput,
      execute: (input, { abortSignal }) => {
        const options = toolCallOptions(timeoutMs, abortSignal);
        return runTool(async () => {
          const found = await client.memories.search({ ...input, scope }, options());
          return { memories: found.memories.map(compactMemory), count: found.count };
        });
      },
    }),
    addMemory: tool({
      description: TOOL_DESCRIPTIONS.addMemory + (allowRuleWrites ? RULE_WRITE_TEXTS.allowedHint : ''),
      inputSchema: addInputFor(allowRuleWrites),
      execute: async (input, { abortSignal }) => {
        const field = allowRuleWrites ? null : ruleField(input);
        if (field !== null) return ruleWriteRefused(field);
        const options = toolCallOptions(timeoutMs, abortSignal);
        return runTool(async () => {
          const added = await client.memories.add({ ...input, scope }, options());
          return { id: added.id, message: added.message, memory: compactMemory(added.memory) };
        });
      },
    }),
    editMemory: tool({
      description: TOOL_DESCRIPTIONS.editMemory,
      inputSchema: editInputFor(allowRuleWrites),
      execute: async (input, { abortSignal }) => {
        const field = allowRuleWrites ? null : ruleField(input);
        if (field !== null) return ruleWriteRefused(field);
        const options = toolCallOptions(timeoutMs, abortSignal);
        const refused = allowRuleWrites ? null : await injectedRuleRefusal(client, scope, input.id, options());
        if (refused !== null) return refused;
        return runTool(async () => {
          const { id, updated, message } = await client.memories.edit({ ...input, scope }, options());
          return { id, updated, message };
        });
      },
    }),
    forgetMemory: tool({
      description: TOOL_DESCRIPTIONS.forgetMemory,
      inputSchema: forgetInput,
      execute: async ({ id }, { abortSignal }) => {
        const options = toolCallOptions(timeoutMs, abortSignal);
        const refused = allowRuleWrites ? null : await injectedRuleRefusal(client, scope, id, options());
        if (refused !== null) return refused;
        return runTool(() => client.memories.forget({ id, scope }, options()));
      },
    }),
    listMemories: tool({
      description: TOOL_DESCRIPTIONS.listMemories,
      inputSchema: listInput,
      execute: (input, { abortSignal }) => {
        const options = toolCallOptions(timeoutMs, abortSignal);
        return runTool(async () => {
          const listed = await client.memories.list({ ...input, scope }, options());
          return { memories: listed.memories.map(compactMemory), count: listed.count };
        });
      },
    }),
    bulkForgetMemories: tool({
      description: TOOL_DESCRIPTIONS.bulkForgetMemories,
      inputSchema: bulkForgetInput,
      execute: async ({ types, tags, olderThanDays, pattern, all = false, dryRun }, { abortSignal }) => {
        if (!allowRuleWrites && types?.includes('rule')) return ruleWriteRefused('types');
        const options = toolCallOptions(timeoutMs, abortSignal);
        return runTool(() =>
          client.memories.bulkForget(
            {
              ...(all ? {} : { filters: { types, tags, olderThanDays, pattern } }),
              all,
              // Forgetting is destructive: only an explicit `false` really deletes, even when `execute` is called
              // without the schema's default (app code, another agent loop).
              dryRun: dryRun !== false,
              scope,
            },
            options(),
          ),
        );
      },
    }),
  };
}
