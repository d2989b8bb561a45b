/** An AI SDK provider package and the embedding models it offers, with list prices (USD per million tokens). */
interface ProviderCatalogEntry {
  provider: string;
  packageName: string;
  exportName: string;
  apiKeyVariable: string;
  models: ReadonlyArray<{ name: string; dimensions: number; costPerMillionTokensUsd: number }>;
}

/**
 * Providers registered when their API key variable is set and their package is installed beside the server. The
 * packages are not dependencies of the server: install the one you use. Prices are the providers' published list
 * prices when this table was written; override them with `MEMORY_EMBEDDING_PRICES`. A table only, so config can read
 * the key variables; `embeddings/register-ai-sdk-providers.ts` registers the models.
 */
export const AI_SDK_PROVIDERS: readonly ProviderCatalogEntry[] = [
  {
    provider: 'openai',
    packageName: '@ai-sdk/openai',
    exportName: 'openai',
    apiKeyVariable: 'OPENAI_API_KEY',
    models: [
      { name: 'text-embedding-3-small', dimensions: 1536, costPerMillionTokensUsd: 0.02 },
      { name: 'text-embedding-3-large', dimensions: 3072, costPerMillionTokensUsd: 0.13 },
    ],
  },
  {
    provider: 'google',
    packageName: '@ai-sdk/google',
    exportName: 'google',
    apiKeyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    models: [{ name: 'gemini-embedding-001', dimensions: 3072, costPerMillionTokensUsd: 0.15 }],
  },
  {
    provider: 'mistral',
    packageName: '@ai-sdk/mistral',
    exportName: 'mistral',
    apiKeyVariable: 'MISTRAL_API_KEY',
    models: [{ name: 'mistral-embed', dimensions: 1024, costPerMillionTokensUsd: 0.1 }],
  },
  {
    provider: 'cohere',
    packageName: '@ai-sdk/cohere',
    exportName: 'cohere',
    apiKeyVariable: 'COHERE_API_KEY',
    models: [
      { name: 'embed-english-v3.0', dimensions: 1024, costPerMillionTokensUsd: 0.1 },
      { name: 'embed-multilingual-v3.0', dimensions: 1024, costPerMillionTokensUsd: 0.1 },
    ],
  },
];
