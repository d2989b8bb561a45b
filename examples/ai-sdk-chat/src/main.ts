import { createInterface } from 'node:readline/promises';
import { type CaptureEvent, memoryMiddleware, memoryTools } from '@memory-service/ai-middleware';
import { createMemoryClient } from '@memory-service/client';
import { connectMemoryService } from '@memory-service/example-shared';
import { isStepCount, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { chooseModel } from './choose-model.ts';

const SCRIPTED_TURNS = [
  'I prefer my coffee black, no sugar.',
  'Remember that our deploys go out on Tuesdays after the standup.',
  'How do I take my coffee?',
  'When do our deploys go out?',
  'Thanks!',
];

const service = await connectMemoryService();
const client = createMemoryClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
const scope = { userId: 'chat-user' };
const { model: baseModel, description } = await chooseModel();
console.log(`[model] ${description}`);

/** One line per stored memory, or why nothing was stored. */
function logCapture({ added, duplicates, superseded }: CaptureEvent): void {
  for (const memory of added) console.log(`[capture] stored: ${memory.content}`);
  if (duplicates > 0) console.log(`[capture] ${duplicates} already remembered, not stored again`);
  if (superseded.length > 0) console.log(`[capture] superseded: ${superseded.join(', ')}`);
  if (added.length === 0 && duplicates === 0) console.log('[capture] nothing worth remembering');
}

const middleware = memoryMiddleware({
  client,
  scope,
  session: {
    turnBudget: 20,
    includeSessionSummary: true,
    onEvent: (event) => console.log(`[session] ${event.type} ${event.sessionId}`),
  },
  // After each answer, the chat's own model names what in the turn is worth keeping (the scripted model plays that
  // part too); the tools below remain for what the user explicitly asks to remember, correct or forget.
  capture: { extract: baseModel },
  onCapture: logCapture,
});
const model = wrapLanguageModel({ model: baseModel, middleware });
const tools = memoryTools({ client, scope });
const messages: ModelMessage[] = [];

async function turn(text: string): Promise<void> {
  messages.push({ role: 'user', content: text });
  const result = streamText({
    model,
    instructions:
      'You are a helpful assistant with long-term memory. What the user tells you is remembered after each turn; ' +
      'use the memory tools when the user asks you to remember, correct or forget something.',
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
  // Capture runs after the answer; waiting for it keeps the log in order and lets the next turn recall it.
  await middleware.flush();
}

try {
  if (process.stdin.isTTY && !process.argv.includes('--scripted')) {
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    console.log('Type a message (tell me a preference, then ask about it); an empty line quits.');
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
