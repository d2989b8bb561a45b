import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

/** One memory as the middleware's extraction schema asks for it. */
interface ScriptedMemory {
  content: string;
  kind: 'fact' | 'preference';
  type: 'fact';
  layer: 'long_term';
  replaces: null;
}

const PREFERENCE_VERBS = new Set(['prefer', 'like', 'love', 'hate']);
const FACT_VERBS = new Set(['am', 'have', 'live', 'work', 'use']);
const THIRD_PERSON: Record<string, string> = { am: 'is', have: 'has' };

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function withEndStop(text: string): string {
  return /[.!]$/.test(text) ? text : `${text}.`;
}

function memory(content: string, kind: ScriptedMemory['kind']): ScriptedMemory {
  return { content: withEndStop(content), kind, type: 'fact', layer: 'long_term', replaces: null };
}

/** "I prefer my coffee black" becomes "The user prefers their coffee black"; a question or small talk, nothing. */
function memoriesOf(userText: string): ScriptedMemory[] {
  const text = userText.trim();
  if (text === '' || text.endsWith('?')) return [];
  const remember = /^remember (?:that )?(.+)$/i.exec(text);
  if (remember !== null) return [memory(capitalize(remember[1]!), 'fact')];
  const statement = /^I (\w+) (.+)$/i.exec(text);
  if (statement === null) return [];
  const verb = statement[1]!.toLowerCase();
  if (!PREFERENCE_VERBS.has(verb) && !FACT_VERBS.has(verb)) return [];
  const thirdPerson = THIRD_PERSON[verb] ?? `${verb}s`;
  const object = statement[2]!
    .replace(/\bmy\b/gi, 'their')
    .replace(/\bme\b/gi, 'them')
    .replace(/\bI\b/g, 'they');
  const kind = PREFERENCE_VERBS.has(verb) ? 'preference' : 'fact';
  return [memory(`The user ${thirdPerson} ${object}`, kind)];
}

/** Whether a call asks for JSON output: in this chat only the memory middleware's extraction does. */
export function isExtractionCall(options: LanguageModelV4CallOptions): boolean {
  return options.responseFormat?.type === 'json';
}

/**
 * The scripted answer to capture's extraction call: its prompt ends with the turn as `User: …` and `Assistant: …`
 * lines; the answer is the `{ memories }` JSON the extraction schema asks for, restating the user's line ("I prefer"
 * in the third person, "remember that" as it is). Memories the prompt lists as stored already are left out, as the
 * instructions ask.
 */
export function extractionAnswer(options: LanguageModelV4CallOptions): string {
  const prompt = options.prompt
    .flatMap((message) =>
      message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [],
    )
    .join('\n');
  const userText = /^User: (.*)$/m.exec(prompt)?.[1] ?? '';
  const memories = memoriesOf(userText).filter((candidate) => !prompt.includes(`: ${candidate.content}\n`));
  return JSON.stringify({ memories });
}
