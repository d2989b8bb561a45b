import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { extractionAnswer, isExtractionCall } from './scripted-extraction.ts';

const usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

function stream(parts: LanguageModelV4StreamPart[], toolCalls: boolean) {
  const finish: LanguageModelV4StreamPart = {
    type: 'finish',
    finishReason: { unified: toolCalls ? 'tool-calls' : 'stop', raw: undefined },
    usage,
  };
  const chunks: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, ...parts, finish];
  return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: 5 }) };
}

function textStream(text: string) {
  const words = text.match(/\S+\s*/g) ?? [];
  const deltas = words.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 'text', delta }));
  return stream([{ type: 'text-start', id: 'text' }, ...deltas, { type: 'text-end', id: 'text' }], false);
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);
}

/** The injected memory line sharing the most words with the question, without its `[type · date · id]` and tags. */
function bestMemory(system: string, question: string): string | undefined {
  const asked = words(question);
  const lines = system.split('\n').filter((line) => line.startsWith('- ['));
  const scored = lines.map((line) => ({ line, score: [...words(line)].filter((word) => asked.has(word)).length }));
  const best = scored.sort((first, second) => second.score - first.score)[0];
  if (best === undefined || best.score === 0) return undefined;
  return best.line.replace(/^- \[[^\]]*\]\s*/, '').replace(/(\s#\S+)+$/, '');
}

/**
 * Answers like a tiny assistant: saves "remember ..." with the addMemory tool, acknowledges other statements (capture
 * stores them), answers questions from injected memory.
 */
function respond(options: LanguageModelV4CallOptions) {
  const last = options.prompt.at(-1);
  if (last?.role === 'tool') return textStream('Saved. I will remember that.');
  const question =
    last?.role === 'user' ? last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ') : '';
  if (/^(thanks|thank you)\b/i.test(question.trim())) return textStream("You're welcome!");
  const remember = /^remember (?:that )?(.+)$/i.exec(question.trim());
  if (remember !== null) {
    const content = remember[1]!.charAt(0).toUpperCase() + remember[1]!.slice(1);
    const input = JSON.stringify({ content, type: 'fact' });
    return stream([{ type: 'tool-call', toolCallId: `call-${Date.now()}`, toolName: 'addMemory', input }], true);
  }
  if (!question.trim().endsWith('?')) return textStream('Good to know!');
  const system = options.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n');
  const memory = bestMemory(system, question);
  return textStream(
    memory === undefined ? "I don't have anything in memory about that yet." : `From memory: ${memory}`,
  );
}

/** The one non-streamed call of the chat: capture's extraction, answered with the JSON its schema asks for. */
function generate(options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult {
  const text = isExtractionCall(options) ? extractionAnswer(options) : '';
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
}

/** A scripted stand-in for a real model, so the chat runs with no API key: it chats and extracts memories. */
export function createScriptedModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'scripted',
    modelId: 'memory-demo',
    doGenerate: async (options) => generate(options),
    doStream: async (options) => respond(options),
  });
}
