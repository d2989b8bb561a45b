export { createApp } from './app.js';
export { type BootstrapOptions, closeServices, createServices } from './bootstrap.js';
export { type LogLevel, loadConfig, type ServerConfig } from './config.js';
export {
  defaultEmbeddingRegistry,
  embeddingConfigurationError,
  embeddingRegistryReady,
} from './embeddings/default-registry.js';
export type { EmbeddingModelDefinition } from './embeddings/model-definition.js';
export { EmbeddingRegistry } from './embeddings/registry.js';
export { defaultHandlers } from './handlers/index.js';
export type { Caller, Handler, HandlerContext, HandlerTable } from './handlers/types.js';
export { createLogger, type Logger, redact } from './logger.js';
export { type RunningServer, startServer } from './server.js';
export type { Services } from './services.js';
