import type { LanguageModelV4Middleware } from '@ai-sdk/provider';

/**
 * One middleware made of several, in the AI SDK's order (`wrapLanguageModel({ middleware: [a, b] })`): the first
 * transforms the call's params first and wraps the call outermost. Every wrapper sees the params after all the
 * transforms, so a middleware can key what it learned in `transformParams` by the params object its `wrapGenerate`
 * or `wrapStream` receives.
 */
export function composeMiddlewares(...middlewares: readonly LanguageModelV4Middleware[]): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    transformParams: async (options) => {
      let { params } = options;
      for (const middleware of middlewares) {
        if (middleware.transformParams !== undefined) params = await middleware.transformParams({ ...options, params });
      }
      return params;
    },
    wrapGenerate: (options) => {
      const call = middlewares.reduceRight<() => ReturnType<typeof options.doGenerate>>(
        (next, middleware) =>
          middleware.wrapGenerate === undefined
            ? next
            : () =>
                (middleware.wrapGenerate as NonNullable<typeof middleware.wrapGenerate>)({
                  ...options,
                  doGenerate: next,
                }),
        options.doGenerate,
      );
      return call();
    },
    wrapStream: (options) => {
      const call = middlewares.reduceRight<() => ReturnType<typeof options.doStream>>(
        (next, middleware) =>
          middleware.wrapStream === undefined
            ? next
            : () =>
                (middleware.wrapStream as NonNullable<typeof middleware.wrapStream>)({ ...options, doStream: next }),
        options.doStream,
      );
      return call();
    },
  };
}
