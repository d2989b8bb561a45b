import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import {
  BulkForgetFiltersSchema,
  BulkForgetInputSchema,
  DEFAULTS,
  LIMITS,
  ListMemoriesInputSchema,
  MEMORY_LAYERS,
  MEMORY_TYPES,
  type OperationId,
  operations,
} from '@memory-service/contract';
import { asSchema, generateText, isStepCount, streamText, type Tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import * as z from 'zod';
import {
  DEFAULT_MEMORY_TOOLS,
  type MemoryToolName,
  memoryMiddleware,
  memoryTools,
  TOOL_DESCRIPTIONS,
} from '../src/index.js';
import { type MemoryServer, startMemoryServer, unreachableClient } from './harness.js';
import { generated, streamedText, streamedToolCall, systemMessages, textResult, toolCall } from './mock-model.js';
import { recordedEvents } from './session-transcript.js';

let server: MemoryServer;
beforeAll(async () => {
  server = await startMemoryServer();
});
afterAll(() => server.close());

/** The output the model saw for each tool result in its prompt. */
function toolOutputs(options: LanguageModelV4CallOptions): unknown[] {
  return options.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
      : [],
  );
}

/** Runs one tool directly, as the agent loop would: the input first goes through the tool's schema. */
async function execute<Input, Output>(tool: Tool<Input, Output>, input: Partial<Input>): Promise<Output> {
  const parsed = await asSchema(tool.inputSchema).validate!(input);
  if (!parsed.success) throw parsed.error;
  const output = await tool.execute!(parsed.value, { toolCallId: 'call-1', messages: [], context: {} });
  if (typeof output === 'object' && output !== null && Symbol.asyncIterator in output) throw new Error('streamed');
  return output as Output;
}

/** A model that plays `steps` in order: each a list of tool calls, or a final text. */
function scriptedModel(steps: (ReturnType<typeof toolCall>[] | string)[]) {
  const results = steps.map((step) => (typeof step === 'string' ? textResult(step) : generated(step)));
  return new MockLanguageModelV4({ doGenerate: results });
}

const ALL_TOOLS = Object.keys(TOOL_DESCRIPTIONS) as MemoryToolName[];

describe('memoryTools: which tools', () => {
  it('gives only get context, search, add, edit and forget without include', () => {
    const tools = memoryTools({ client: server.client });
    expect(Object.keys(tools)).toEqual(['getContext', 'searchMemories', 'addMemory', 'editMemory', 'forgetMemory']);
    expect(Object.keys(tools)).toEqual([...DEFAULT_MEMORY_TOOLS]);
    expectTypeOf(tools).toHaveProperty('forgetMemory');
    expectTypeOf(tools).not.toHaveProperty('listMemories');
    expectTypeOf(tools).not.toHaveProperty('bulkForgetMemories');
  });

  it('gives the tools named in include, each with a zod input schema and the shared description', () => {
    const picked = memoryTools({ client: server.client, include: ['listMemories', 'bulkForgetMemories'] });
    expect(Object.keys(picked)).toEqual(['listMemories', 'bulkForgetMemories']);
    expectTypeOf(picked).toHaveProperty('bulkForgetMemories');
    expectTypeOf(picked).not.toHaveProperty('addMemory');

    const tools = memoryTools({ client: server.client, include: ALL_TOOLS });
    expect(Object.keys(tools).sort()).toEqual(Object.keys(TOOL_DESCRIPTIONS).sort());
    for (const [name, tool] of Object.entries(tools)) {
      expect(tool.description).toBe(TOOL_DESCRIPTIONS[name as MemoryToolName]);
      expect(tool.inputSchema).toHaveProperty('_zod');
    }
    expect(Object.keys(memoryTools({ client: server.client, include: [] }))).toEqual([]);
  });

  it('throws on an unknown name in include', () => {
    // @ts-expect-error include is typed by tool name
    expect(() => memoryTools({ client: server.client, include: ['getContext', 'deleteEverything'] })).toThrow(
      "memoryTools: unknown tool 'deleteEverything' in include",
    );
  });
});

/** A JSON schema as far as these tests read it. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
}

/** The JSON schema the AI SDK sends the model for a tool's input. */
function sentSchema(tool: Tool<never, unknown>): JsonSchema {
  return asSchema(tool.inputSchema).jsonSchema as JsonSchema;
}

/** A route's request schema as JSON schema, the way the SDK converts a tool's. */
function routeSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }) as JsonSchema;
}

function withoutDescription({ description: _, ...rest }: JsonSchema): JsonSchema {
  return rest;
}

/** The route of each tool, the fields the model fills in and which of them are required. */
const TOOL_ROUTES: Record<MemoryToolName, { route: OperationId; fields: string[]; required: string[] }> = {
  getContext: { route: 'context.get', fields: ['query', 'limit', 'mode'], required: [] },
  searchMemories: { route: 'memories.search', fields: ['query', 'type', 'limit'], required: ['query'] },
  addMemory: { route: 'memories.add', fields: ['content', 'tags', 'category', 'type', 'layer'], required: ['content'] },
  editMemory: {
    route: 'memories.edit',
    fields: ['id', 'content', 'tags', 'category', 'type', 'layer'],
    required: ['id'],
  },
  forgetMemory: { route: 'memories.forget', fields: ['id'], required: ['id'] },
  listMemories: { route: 'memories.list', fields: ['type', 'layer', 'limit', 'tags'], required: [] },
  bulkForgetMemories: {
    route: 'memories.bulkForget',
    fields: ['types', 'tags', 'olderThanDays', 'pattern', 'all', 'dryRun'],
    required: [],
  },
  upsertSkillFile: { route: 'skills.upsert', fields: ['path', 'content'], required: ['path', 'content'] },
  listSkillFiles: { route: 'skills.list', fields: ['limit'], required: [] },
  startSession: { route: 'sessions.start', fields: ['title'], required: [] },
  checkpointSession: {
    route: 'sessions.checkpoint',
    fields: ['sessionId', 'content', 'role', 'kind'],
    required: ['sessionId', 'content'],
  },
  endSession: { route: 'sessions.end', fields: ['sessionId', 'status'], required: ['sessionId'] },
};

/** Fields the model gets narrower than the route, each checked on its own below. */
const NARROWED = new Set([
  'addMemory.type',
  'addMemory.layer',
  'editMemory.type',
  'editMemory.layer',
  'listMemories.tags',
  'bulkForgetMemories.dryRun',
]);

describe('memoryTools: input schemas follow the contract', () => {
  // Only the schemas are read: no call reaches a server.
  const tools = memoryTools({ client: unreachableClient(), include: ALL_TOOLS });
  const property = (name: MemoryToolName, field: string) =>
    sentSchema(tools[name] as Tool<never, unknown>).properties![field]!;

  it('sends the model the fields of each route without scope, described, with the limits and defaults of the route', () => {
    for (const name of ALL_TOOLS) {
      const sent = sentSchema(tools[name] as Tool<never, unknown>);
      const { route, fields, required } = TOOL_ROUTES[name];
      expect(sent.type, name).toBe('object');
      expect(sent.additionalProperties, name).toBe(false);
      expect(Object.keys(sent.properties ?? {}), name).toEqual(fields);
      expect(sent.required ?? [], name).toEqual(required);
      const routeProperties = {
        // Bulk forget takes the route's `filters` flattened (its `all` is the route's top-level one).
        ...(name === 'bulkForgetMemories' ? routeSchema(BulkForgetFiltersSchema).properties : {}),
        ...routeSchema(operations[route].input).properties,
      };
      for (const [field, property] of Object.entries(sent.properties ?? {})) {
        expect(property.description, `${name}.${field}`).toEqual(expect.any(String));
        if (NARROWED.has(`${name}.${field}`)) continue;
        expect(withoutDescription(property), `${name}.${field}`).toEqual(withoutDescription(routeProperties[field]!));
      }
    }
  });

  it('carries the limits of the contract', () => {
    expect(property('addMemory', 'content')).toMatchObject({
      minLength: LIMITS.memoryContent.min,
      maxLength: LIMITS.memoryContent.max,
    });
    expect(property('editMemory', 'content').maxLength).toBe(LIMITS.memoryContent.max);
    expect(property('addMemory', 'tags')).toMatchObject({
      maxItems: LIMITS.tags.maxItems,
      items: { maxLength: LIMITS.tags.itemMax },
    });
    expect(property('addMemory', 'category').maxLength).toBe(LIMITS.category.max);
    expect(property('searchMemories', 'query').maxLength).toBe(LIMITS.query.max);
    expect(property('searchMemories', 'limit')).toMatchObject({
      maximum: LIMITS.retrievalLimit.max,
      default: DEFAULTS.searchLimit,
    });
    expect(property('getContext', 'limit').maximum).toBe(LIMITS.retrievalLimit.max);
    expect(property('listMemories', 'limit')).toMatchObject({
      minimum: LIMITS.listLimit.min,
      maximum: LIMITS.listLimit.max,
    });
    expect(property('bulkForgetMemories', 'pattern').maxLength).toBe(LIMITS.bulkForgetPattern.max);
    expect(property('bulkForgetMemories', 'olderThanDays').maximum).toBe(LIMITS.olderThanDays.max);
    expect(property('upsertSkillFile', 'content').maxLength).toBe(LIMITS.skillContent.max);
    expect(property('upsertSkillFile', 'path').maxLength).toBe(LIMITS.skillPath.max);
    expect(property('listSkillFiles', 'limit').maximum).toBe(LIMITS.skillListLimit.max);
    expect(property('startSession', 'title').maxLength).toBe(LIMITS.sessionTitle.max);
    expect(property('checkpointSession', 'content').maxLength).toBe(LIMITS.checkpointContent.max);
    expect(property('endSession', 'sessionId').maxLength).toBe(LIMITS.sessionId.max);
  });

  it('narrows the route where the model gets less: no rule, tags as a list, a dry run by default', () => {
    for (const name of ['addMemory', 'editMemory'] as const) {
      expect(property(name, 'type').enum).toEqual(MEMORY_TYPES.filter((type) => type !== 'rule'));
      expect(property(name, 'layer').enum).toEqual(MEMORY_LAYERS.filter((layer) => layer !== 'rule'));
    }
    const listTags = routeSchema(ListMemoriesInputSchema).properties!['tags']!.anyOf!;
    expect(withoutDescription(property('listMemories', 'tags'))).toEqual(
      listTags.find((item) => item.type === 'array'),
    );
    const routeDryRun = routeSchema(BulkForgetInputSchema).properties!['dryRun']!;
    expect(routeDryRun.default).toBe(false);
    expect(withoutDescription(property('bulkForgetMemories', 'dryRun'))).toEqual({ ...routeDryRun, default: true });
  });
});

describe('memoryTools: calls', () => {
  it('writes and reads memory through a multi-step generateText', async () => {
    const scope = { userId: 'tool-user' };
    const model = scriptedModel([
      [toolCall('addMemory', { content: 'Ada prefers tabs over spaces.', type: 'fact', tags: ['style'] })],
      [toolCall('searchMemories', { query: 'tabs spaces' })],
      'Noted: you prefer tabs.',
    ]);
    const result = await generateText({
      model,
      tools: memoryTools({ client: server.client, scope }),
      stopWhen: isStepCount(5),
      prompt: 'Remember that I prefer tabs.',
    });

    expect(result.text).toBe('Noted: you prefer tabs.');
    expect(result.steps).toHaveLength(3);
    const added = result.steps[0]!.toolResults[0]!.output as { ok: boolean; data: { id: string } };
    expect(added).toMatchObject({
      ok: true,
      data: { memory: { content: 'Ada prefers tabs over spaces.', tags: ['style'] } },
    });
    const found = result.steps[1]!.toolResults[0]!.output as { ok: true; data: { memories: { id: string }[] } };
    expect(found.data.memories.map((memory) => memory.id)).toContain(added.data.id);
    // The model's third call saw both results in its prompt.
    expect(toolOutputs(model.doGenerateCalls[2]!)).toHaveLength(2);
    const stored = await server.client.memories.list({ scope });
    expect(stored.memories.map((memory) => memory.content)).toContain('Ada prefers tabs over spaces.');
  });

  it('edits, lists and forgets; a failing call returns an error result the loop goes on with', async () => {
    const scope = { userId: 'edit-user' };
    const { id } = await server.client.memories.add({ content: 'The office is in Leeds.', scope });
    const model = scriptedModel([
      [toolCall('editMemory', { id, content: 'The office is in York.' })],
      [toolCall('forgetMemory', { id: 'does-not-exist' })],
      [toolCall('listMemories', {})],
      'Done.',
    ]);
    const result = await generateText({
      model,
      tools: memoryTools({ client: server.client, scope, include: [...DEFAULT_MEMORY_TOOLS, 'listMemories'] }),
      stopWhen: isStepCount(6),
      prompt: 'We moved to York.',
    });

    expect(result.text).toBe('Done.');
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({ ok: true, data: { id, updated: true } });
    expect(result.steps[1]!.toolResults[0]!.output).toMatchObject({
      ok: false,
      error: { code: 'MEMORY_NOT_FOUND', retryable: false },
    });
    expect(result.steps[2]!.toolResults[0]!.output).toMatchObject({
      ok: true,
      data: { memories: [{ id, content: 'The office is in York.' }] },
    });
  });

  it('bulkForgetMemories is a dry run unless the model sets dryRun: false', async () => {
    const scope = { userId: 'bulk-user' };
    await server.client.memories.add({ content: 'Temporary note one', type: 'note', scope });
    await server.client.memories.add({ content: 'Temporary note two', type: 'note', scope });
    const tools = memoryTools({ client: server.client, scope, include: ['bulkForgetMemories'] });

    const preview = await execute(tools.bulkForgetMemories, { types: ['note'] });
    expect(preview).toMatchObject({ ok: true, data: { dryRun: true, count: 2 } });
    expect((await server.client.memories.list({ scope })).count).toBe(2);

    const forgotten = await execute(tools.bulkForgetMemories, { types: ['note'], dryRun: false });
    expect(forgotten).toMatchObject({ ok: true, data: { dryRun: false, count: 2 } });
    expect((await server.client.memories.list({ scope })).count).toBe(0);
  });

  it('manages skill files and sessions', async () => {
    const scope = { userId: 'skill-user' };
    const tools = memoryTools({
      client: server.client,
      scope,
      include: ['upsertSkillFile', 'listSkillFiles', 'startSession', 'checkpointSession', 'endSession'],
    });
    const upserted = await execute(tools.upsertSkillFile, { path: 'ops/restart.md', content: '# Restart\n1. Drain' });
    expect(upserted).toMatchObject({
      ok: true,
      data: { created: true, skillFile: { path: 'ops/restart.md', title: 'Restart' } },
    });
    const listed = await execute(tools.listSkillFiles, {});
    expect(listed).toMatchObject({ ok: true, data: { count: 1, skillFiles: [{ path: 'ops/restart.md' }] } });

    const started = await execute(tools.startSession, { title: 'Incident 42' });
    if (!started.ok) throw new Error(started.error.message);
    const { sessionId } = started.data;
    const noted = await execute(tools.checkpointSession, {
      sessionId,
      content: 'Restarted the API.',
      kind: 'decision',
    });
    expect(noted).toMatchObject({ ok: true, data: { sessionId } });
    const ended = await execute(tools.endSession, { sessionId });
    expect(ended).toMatchObject({ ok: true, data: { sessionId, snapshot: { summary: null } } });
    const again = await execute(tools.endSession, { sessionId });
    expect(again).toMatchObject({ ok: false, error: { code: 'SESSION_NOT_ACTIVE' } });
  });

  it('getContext returns rules, memories and skill files without storage details', async () => {
    const scope = { userId: 'context-user' };
    await server.client.memories.add({ content: 'Never deploy on Fridays.', type: 'rule', scope });
    const tools = memoryTools({ client: server.client, scope, include: ['getContext'] });
    const result = await execute(tools.getContext, { query: 'deploy' });
    expect(result).toMatchObject({
      ok: true,
      data: { rules: [{ content: 'Never deploy on Fridays.', type: 'rule' }] },
    });
    expect(JSON.stringify(result)).not.toContain('trace');
  });

  it('returns an error result when the service is down', async () => {
    const tools = memoryTools({ client: unreachableClient(), include: ['searchMemories'] });
    const result = await execute(tools.searchMemories, { query: 'x' });
    expect(result).toMatchObject({ ok: false, error: { code: 'CONNECTION_ERROR', retryable: true } });
  });
});

describe('tools together with the middleware', () => {
  it('a tool loop counts one turn, fetches context once for all its steps and records the final streamed answer', async () => {
    const scope = { userId: 'loop-user' };
    await server.client.memories.add({ content: 'The lunch room is on floor 3.', scope });
    const sessionIds: string[] = [];
    const model = new MockLanguageModelV4({
      doStream: [streamedToolCall('addMemory', { content: 'Lunch is at noon.' }), streamedText('Saved it.')],
    });
    const contextCalls = vi.spyOn(server.client.context, 'get');
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      session: { turnBudget: 1, onEvent: (event) => event.type === 'started' && sessionIds.push(event.sessionId) },
    });
    const result = streamText({
      model: wrapLanguageModel({ model, middleware }),
      tools: memoryTools({ client: server.client, scope }),
      stopWhen: isStepCount(3),
      prompt: 'Remember that lunch is at noon.',
    });

    expect(await result.text).toBe('Saved it.');
    await middleware.flush();
    expect(contextCalls).toHaveBeenCalledTimes(1);
    contextCalls.mockRestore();
    expect(sessionIds).toHaveLength(1);
    const [first, second] = model.doStreamCalls;
    expect(first!.prompt[0]).toMatchObject({ role: 'system' });
    expect(first!.prompt[0]!.content).toContain('The lunch room is on floor 3.');
    expect(second!.prompt[0]).toEqual(first!.prompt[0]);
    const events = await recordedEvents(server.client, sessionIds[0]!, scope);
    expect(events).toEqual([
      { heading: 'user · message', content: 'Remember that lunch is at noon.' },
      { heading: 'assistant · tool_call', content: 'addMemory({"content":"Lunch is at noon."})' },
      { heading: 'assistant · message', content: 'Saved it.' },
    ]);
  });

  it('a three-step generateText loop makes one context call and injects the same context in every step', async () => {
    const scope = { userId: 'generate-loop-user' };
    await server.client.memories.add({ content: 'The cat sleeps on the sofa.', scope });
    const model = scriptedModel([
      [toolCall('searchMemories', { query: 'cat' })],
      [toolCall('addMemory', { content: 'The cat is called Miso.' })],
      'Miso it is.',
    ]);
    const contextCalls = vi.spyOn(server.client.context, 'get');
    const middleware = memoryMiddleware({ client: server.client, scope, session: {} });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware }),
      tools: memoryTools({ client: server.client, scope }),
      stopWhen: isStepCount(3),
      prompt: 'My cat is called Miso.',
    });

    expect(result.text).toBe('Miso it is.');
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(contextCalls).toHaveBeenCalledTimes(1);
    contextCalls.mockRestore();
    const injected = model.doGenerateCalls.map((call) => systemMessages(call));
    expect(injected[0]![0]).toContain('The cat sleeps on the sofa.');
    expect(injected[1]).toEqual(injected[0]);
    expect(injected[2]).toEqual(injected[0]);
    expect(model.doGenerateCalls[2]!.prompt.at(-1)?.role).toBe('tool');
  });
});
