import type { LanguageModelV4 } from '@ai-sdk/provider';
import { createScriptedModel } from './scripted-model.ts';

/** The chat's model and how to describe it. */
export interface ChosenModel {
  model: LanguageModelV4;
  description: string;
}

/** OpenAI when `OPENAI_API_KEY` is set (its package is loaded only then), else the scripted mock model. */
export async function chooseModel(): Promise<ChosenModel> {
  if ((process.env.OPENAI_API_KEY ?? '').trim() !== '') {
    const { openai } = await import('@ai-sdk/openai');
    const modelId = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
    return { model: openai(modelId), description: `OpenAI ${modelId} (OPENAI_API_KEY is set)` };
  }
  return {
    model: createScriptedModel(),
    description: 'a scripted mock model (MockLanguageModelV4; set OPENAI_API_KEY to talk to OpenAI)',
  };
}
