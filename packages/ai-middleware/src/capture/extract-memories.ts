import type { LanguageModelV4 } from '@ai-sdk/provider';
import { MemoryContentSchema, MemoryLayerSchema, MemoryTypeSchema } from '@memory-service/contract';
import { generateText, Output } from 'ai';
import * as z from 'zod';
import { INTERNAL_CALL_OPTIONS } from './internal-call.js';

const MAX_EXTRACTED = 20;
const MAX_KNOWN_SHOWN = 30;
const MAX_TOOL_INPUT = 400;

/** One memory the extraction model names. */
export const ExtractedMemorySchema = z.object({
  content: MemoryContentSchema.describe(
    'One self-contained statement in the third person ("The user prefers dark mode"), true beyond this conversation',
  ),
  kind: z.enum(['fact', 'preference', 'decision', 'correction']).describe('What the statement is'),
  type: MemoryTypeSchema.exclude(['skill']).describe('fact, decision, note, or rule (an instruction to always follow)'),
  layer: MemoryLayerSchema.describe('long_term for lasting memories, working for the current task, rule for rules'),
  replaces: z.string().nullable().describe('The id of a stored memory this statement corrects or changes, else null'),
});
export type ExtractedMemory = z.infer<typeof ExtractedMemorySchema>;

/** The structured output the extraction model is asked for. */
export const ExtractionSchema = z.object({
  memories: z.array(ExtractedMemorySchema).max(MAX_EXTRACTED),
});

const INSTRUCTIONS = [
  'You maintain the long-term memory of an assistant. From the conversation turn below, list the durable facts,',
  'preferences, decisions and corrections worth remembering in later conversations. Leave out questions, small talk,',
  'greetings, and anything the assistant said that the user did not confirm. Write each memory as one short,',
  'self-contained statement in the third person, naming the user as "The user". When the user corrects or changes',
  'a stored memory, restate that stored memory in the same words with only the changed value replaced, kind',
  '"correction", and its id in "replaces". Do not repeat what a stored memory already says. An empty list is a',
  'good answer when nothing is worth remembering.',
].join(' ');

/** What the extraction model reads about one turn. */
export interface ExtractionInput {
  userText: string;
  answer: string;
  known: readonly { id: string; content: string }[];
  toolCalls: readonly { toolName: string; input: string }[];
}

function turnPrompt(input: ExtractionInput): string {
  const known = input.known.slice(0, MAX_KNOWN_SHOWN).map((memory) => `- ${memory.id}: ${memory.content.trim()}`);
  const calls = input.toolCalls.map((call) => `- ${call.toolName}(${call.input.slice(0, MAX_TOOL_INPUT)})`);
  return [
    'Stored memories (id: content):',
    ...(known.length === 0 ? ['(none)'] : known),
    '',
    'The turn:',
    `User: ${input.userText.trim()}`,
    ...(calls.length === 0
      ? []
      : ['Tools the assistant called (what a memory tool saved is already stored):', ...calls]),
    `Assistant: ${input.answer.trim()}`,
  ].join('\n');
}

/**
 * Asks the model for the turn's durable memories, as structured output. Throws when the model fails or its output
 * does not match the schema (the caller reports it and stores nothing).
 */
export async function extractMemories(
  model: LanguageModelV4,
  input: ExtractionInput,
  extraInstructions: string | undefined,
): Promise<ExtractedMemory[]> {
  const result = await generateText({
    model,
    instructions: extraInstructions === undefined ? INSTRUCTIONS : `${INSTRUCTIONS}\n\n${extraInstructions}`,
    prompt: turnPrompt(input),
    output: Output.object({ schema: ExtractionSchema }),
    ...INTERNAL_CALL_OPTIONS,
  });
  return result.output.memories;
}
