import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { composeMiddlewares } from './compose-middlewares.js';

type Params = LanguageModelV4CallOptions;
const model = {} as Parameters<NonNullable<LanguageModelV4Middleware['transformParams']>>[0]['model'];

/** A middleware that appends its name to the prompt's text and logs when it wraps a call. */
function named(name: string, log: string[]): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => ({
      ...params,
      prompt: [...params.prompt, { role: 'system', content: name }],
    }),
    wrapGenerate: async ({ doGenerate, params }) => {
      log.push(`${name} in (${params.prompt.length} messages)`);
      const result = await doGenerate();
      log.push(`${name} out`);
      return result;
    },
  };
}

describe('composeMiddlewares', () => {
  it("transforms in order, wraps the first outermost, and gives every wrapper the final params (the AI SDK's order)", async () => {
    const log: string[] = [];
    const composed = composeMiddlewares(named('a', log), { specificationVersion: 'v4' }, named('b', log));
    const params = await composed.transformParams?.({
      params: { prompt: [] } as unknown as Params,
      type: 'generate',
      model,
    });
    expect(params?.prompt.map((message) => message.content)).toEqual(['a', 'b']);
    const result = { marker: 'the model answered' };
    const answer = await composed.wrapGenerate?.({
      doGenerate: async () => {
        log.push('model');
        return result as never;
      },
      doStream: async () => {
        throw new Error('not streamed');
      },
      params: params as Params,
      model,
    });
    expect(answer).toBe(result);
    expect(log).toEqual(['a in (2 messages)', 'b in (2 messages)', 'model', 'b out', 'a out']);
  });

  it('calls the model directly when no middleware wraps', async () => {
    const composed = composeMiddlewares({ specificationVersion: 'v4' });
    let streamed = 0;
    await composed.wrapStream?.({
      doGenerate: async () => {
        throw new Error('not generated');
      },
      doStream: async () => {
        streamed += 1;
        return {} as never;
      },
      params: { prompt: [] } as unknown as Params,
      model,
    });
    expect(streamed).toBe(1);
  });
});
