import { CHARACTERS_PER_TOKEN } from '@memory-service/client';

/** Estimated tokens of a text: characters / 4, as the client estimates context size. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}
