import { generateText, streamText, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMiddleware } from '../src/index.js';
import { API_KEY, type MemoryServer, startMemoryServer } from './harness.js';
import { echoModel, systemMessages } from './mock-model.js';

let server: MemoryServer;
const scope = { userId: 'ada' };

beforeAll(async () => {
  server = await startMemoryServer();
  await server.client.memories.add({ content: 'Always answer in British English.', type: 'rule', scope });
  await server.client.memories.add({
    content: 'Deploys go out on Tuesdays after the standup.',
    type: 'decision',
    scope,
  });
  await server.client.memories.add({ content: 'The billing service is written in Go.', type: 'fact', scope });
  await server.client.skills.upsert({ path: 'deploy/release.md', content: '# Release steps\n1. Tag\n2. Push', scope });
});
afterAll(() => server.close());

describe('what the middleware injects, and where', () => {
  it('puts one system message in front of the prompt; instructions stay, the user message stays last', async () => {
    const model = echoModel();
    const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware({ client: server.client, scope }) });
    await generateText({ model: wrapped, instructions: 'You are terse.', prompt: 'When do deploys go out?' });

    const { prompt } = model.doGenerateCalls[0]!;
    expect(prompt.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    expect(prompt[1]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(prompt.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'When do deploys go out?' }] });
    const memory = systemMessages(model.doGenerateCalls[0]!)[0]!;
    const today = new Date().toISOString().slice(0, 10);
    expect(memory).toContain('Rules (always follow these):');
    expect(memory).toContain(`- [rule · ${today} · id `);
    expect(memory).toContain('Always answer in British English.');
    expect(memory).toMatch(new RegExp(`\\[decision · ${today} · id [0-9a-f]+\\] Deploys go out on Tuesdays`));
    expect(memory).toContain('- deploy/release.md: Release steps');
    expect(memory).toContain('### deploy/release.md\n# Release steps');
  });

  it('injects the same way for streamText, and the stream still delivers the text', async () => {
    const model = echoModel(() => 'On Tuesdays.');
    const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware({ client: server.client, scope }) });
    const result = streamText({ model: wrapped, prompt: 'When do deploys go out?' });

    expect(await result.text).toBe('On Tuesdays.');
    const { prompt } = model.doStreamCalls[0]!;
    expect(prompt[0]?.role).toBe('system');
    expect(systemMessages(model.doStreamCalls[0]!)[0]).toContain('Deploys go out on Tuesdays');
    expect(prompt.at(-1)?.role).toBe('user');
  });

  it('takes the query from the last user message of a conversation', async () => {
    const model = echoModel();
    const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware({ client: server.client, scope }) });
    await generateText({
      model: wrapped,
      messages: [
        { role: 'user', content: 'When do deploys go out?' },
        { role: 'assistant', content: 'On Tuesdays.' },
        { role: 'user', content: [{ type: 'text', text: 'Which language is billing written in?' }] },
      ],
    });
    const memory = systemMessages(model.doGenerateCalls[0]!)[0]!;
    const firstMemory = memory.slice(memory.indexOf('Relevant memories')).split('\n')[1];
    expect(firstMemory).toContain('The billing service is written in Go.');
    expect(model.doGenerateCalls[0]!.prompt.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('uses extractQuery when given', async () => {
    const promptLengths: number[] = [];
    const model = echoModel();
    const middleware = memoryMiddleware({
      client: server.client,
      scope,
      extractQuery: (prompt) => {
        promptLengths.push(prompt.length);
        return 'billing language';
      },
      includeRules: false,
      includeSkillFiles: false,
      limit: 1,
    });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'unrelated words' });
    const memory = systemMessages(model.doGenerateCalls[0]!)[0]!;
    expect(promptLengths).toEqual([1]);
    expect(memory).toContain('The billing service is written in Go.');
    expect(memory).not.toContain('Rules');
    expect(memory).not.toContain('Skill files');
  });

  it('accepts { baseUrl, apiKey } instead of a client', async () => {
    const model = echoModel();
    const middleware = memoryMiddleware({ client: { ...server.clientOptions, apiKey: API_KEY }, scope });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'deploys' });
    expect(systemMessages(model.doGenerateCalls[0]!)[0]).toContain('Deploys go out on Tuesdays');
  });

  it('adds nothing when memory has nothing to say', async () => {
    const model = echoModel();
    const middleware = memoryMiddleware({ client: server.client, scope: { userId: 'nobody', projectId: 'empty' } });
    await generateText({ model: wrapLanguageModel({ model, middleware }), instructions: 'Hi.', prompt: 'hello' });
    expect(model.doGenerateCalls[0]!.prompt.map((message) => message.role)).toEqual(['system', 'user']);
    expect(systemMessages(model.doGenerateCalls[0]!)).toEqual(['Hi.']);
  });

  it('trims the injected context to maxContextTokens', async () => {
    const model = echoModel();
    const middleware = memoryMiddleware({ client: server.client, scope, maxContextTokens: 90 });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'When do deploys go out?' });
    const memory = systemMessages(model.doGenerateCalls[0]!)[0]!;
    expect(Math.ceil(memory.length / 4)).toBeLessThanOrEqual(90);
    expect(memory).toContain('Always answer in British English.');
    expect(memory).not.toContain('### deploy/release.md');
  });
});
