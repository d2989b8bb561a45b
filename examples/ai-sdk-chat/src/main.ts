import { createInterface } from 'node:readline/promises';
import { memoryMiddleware, memoryTools } from '@memory-service/ai-middleware';
import { createMemoryClient } from '@memory-service/client';
import { connectMemoryService } from '@memory-service/example-shared';
import { isStepCount, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { chooseModel } from './choose-model.ts';

const SCRIPTED_TURNS = [
  'Remember that our deploys go out on Tuesdays after the standup.',
  'When do our deploys go out?',
  'Thanks!',
];

const service = await connectMemoryService();
const client = createMemoryClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
const scope = { userId: 'chat-user' };
const { model: baseModel, description } = await chooseModel();
console.log(`[model] ${description}`);

const model = wrapLanguageModel({
  model: baseModel,
  middleware: memoryMiddleware({
    client,
    scope,
    session: {
      turnBudget: 20,
      includeSessionSummary: true,
      onEvent: (event) => console.log(`[session] ${event.type} ${event.sessionId}`),
    },
  }),
});
const tools = memoryTools({ client, scope, include: ['addMemory', 'searchMemories', 'editMemory', 'forgetMemory'] });
const messages: ModelMessage[] = [];

async function turn(text: string): Promise<void> {
  messages.push({ role: 'user', content: text });
  const result = streamText({
    model,
    instructions: 'You are a helpful assistant with long-term memory. Save durable facts with addMemory.',
    messages,
    tools,
    stopWhen: isStepCount(4),
  });
  // The prefix waits for the first output, so session events logged before it stay on their own line.
  let prefix = 'assistant> ';
  const write = (text: string) => {
    process.stdout.write(prefix + text);
    prefix = '';
  };
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') write(part.text);
    else if (part.type === 'tool-call') write(`[tool ${part.toolName} ${JSON.stringify(part.input)}] `);
  }
  process.stdout.write('\n');
  messages.push(...(await result.response).messages);
}

try {
  if (process.stdin.isTTY && !process.argv.includes('--scripted')) {
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    console.log('Type a message ("remember that ..." saves a memory); an empty line quits.');
    for (let line = await terminal.question('you> '); line.trim() !== ''; line = await terminal.question('you> ')) {
      await turn(line);
    }
    terminal.close();
  } else {
    // Not a terminal (CI, a pipe): play a fixed conversation.
    for (const text of SCRIPTED_TURNS) {
      console.log(`you> ${text}`);
      await turn(text);
    }
  }
} finally {
  await service.close();
}
