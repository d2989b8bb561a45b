import type * as z from 'zod';
import { contextOperations } from './operations/context.js';
import { embeddingOperations } from './operations/embeddings.js';
import { graphOperations } from './operations/graph.js';
import { healthOperations } from './operations/health.js';
import { managementOperations } from './operations/management.js';
import { memoryOperations } from './operations/memories.js';
import type { OperationDefinition } from './operations/operation-definition.js';
import { sessionOperations } from './operations/sessions.js';
import { skillOperations } from './operations/skills.js';

export {
  AUTH_CREDENTIALS,
  type AuthKind,
  buildPath,
  COMMON_ERROR_CODES,
  type Credential,
  featureFlagErrorCode,
  type HttpMethod,
  type McpToolExposure,
  OPERATION_TAGS,
  type OperationDefinition,
  type OperationTag,
  operationErrorCodes,
  type RouteFeatureFlag,
  type ScopeSource,
} from './operations/operation-definition.js';

/**
 * The operations table: every route+method of the contract, keyed by id. Each resource's entries are in
 * `operations/<resource>.ts`; their order here is the order of routes, OpenAPI paths and MCP tools.
 */
export const operations = {
  ...healthOperations,
  ...contextOperations,
  ...memoryOperations,
  ...skillOperations,
  ...sessionOperations,
  ...embeddingOperations,
  ...graphOperations,
  ...managementOperations,
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
/** The parsed input of an operation (defaults applied). */
export type OperationInput<Id extends OperationId> = z.output<Operations[Id]['input']>;
/** What a caller may send to an operation (defaults optional). */
export type OperationRequest<Id extends OperationId> = z.input<Operations[Id]['input']>;
/** The envelope `data` of an operation. */
export type OperationData<Id extends OperationId> = z.output<Operations[Id]['data']>;

/** Every operation as a list. */
export const operationList: readonly OperationDefinition[] = Object.values(operations);
