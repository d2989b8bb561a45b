import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, isStepCount, streamText, type Tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMiddleware, memoryTools, TOOL_DESCRIPTIONS } from '../src/index.js';
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

/** Runs one tool directly, as the agent loop would. */
async function execute<Input, Output>(tool: Tool<Input, Output>, input: Input): Promise<Output> {
  const output = await tool.execute!(input, { toolCallId: 'call-1', messages: [], context: {} });
  if (typeof output === 'object' && output !== null && Symbol.asyncIterator in output) throw new Error('streamed');
  return output as Output;
}

/** A model that plays `steps` in order: each a list of tool calls, or a final text. */
function scriptedModel(steps: (ReturnType<typeof toolCall>[] | string)[]) {
  const results = steps.map((step) => (typeof step === 'string' ? textResult(step) : generated(step)));
  return new MockLanguageModelV4({ doGenerate: results });
}

describe('memoryTools', () => {
  it('builds every tool with a zod input schema and the shared descriptions', () => {
    const tools = memoryTools({ client: server.client });
    expect(Object.keys(tools).sort()).toEqual(Object.keys(TOOL_DESCRIPTIONS).sort());
    for (const [name, tool] of Object.entries(tools)) {
      expect(tool.description).toBe(TOOL_DESCRIPTIONS[name as keyof typeof TOOL_DESCRIPTIONS]);
      expect(tool.inputSchema).toHaveProperty('_zod');
    }
    expect(Object.keys(memoryTools({ client: server.client, include: ['addMemory', 'searchMemories'] }))).toEqual([
      'addMemory',
      'searchMemories',
    ]);
  });

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
      tools: memoryTools({ client: server.client, scope }),
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
    const tools = memoryTools({ client: server.client, scope });
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
  it('a tool loop counts one turn, injects context on every step and records the final streamed answer', async () => {
    const scope = { userId: 'loop-user' };
    const sessionIds: string[] = [];
    const model = new MockLanguageModelV4({
      doStream: [streamedToolCall('addMemory', { content: 'Lunch is at noon.' }), streamedText('Saved it.')],
    });
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
    expect(sessionIds).toHaveLength(1);
    expect(model.doStreamCalls[1]!.prompt[0]).toMatchObject({ role: 'system' });
    expect(model.doStreamCalls[1]!.prompt[0]!.content).toContain('Lunch is at noon.');
    const events = await recordedEvents(server.client, sessionIds[0]!, scope);
    expect(events).toEqual([
      { heading: 'user · message', content: 'Remember that lunch is at noon.' },
      { heading: 'assistant · tool_call', content: 'addMemory({"content":"Lunch is at noon."})' },
      { heading: 'assistant · message', content: 'Saved it.' },
    ]);
  });

  it('a generateText tool loop with the middleware reads what a tool wrote in the same loop', async () => {
    const scope = { userId: 'generate-loop-user' };
    const model = scriptedModel([[toolCall('addMemory', { content: 'The cat is called Miso.' })], 'Miso it is.']);
    const middleware = memoryMiddleware({ client: server.client, scope, session: {} });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware }),
      tools: memoryTools({ client: server.client, scope }),
      stopWhen: isStepCount(3),
      prompt: 'My cat is called Miso.',
    });

    expect(result.text).toBe('Miso it is.');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(systemMessages(model.doGenerateCalls[0]!)).toEqual([]);
    expect(systemMessages(model.doGenerateCalls[1]!)[0]).toContain('The cat is called Miso.');
    expect(model.doGenerateCalls[1]!.prompt.at(-1)?.role).toBe('tool');
  });
});
