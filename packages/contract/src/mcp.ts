import { type McpToolExposure, type OperationDefinition, type OperationId, operationList } from './operations.js';

/** What of a tool changes how its arguments are read: hints it drops, filter fields it takes at the top level. */
export type McpArgumentRules = Pick<McpToolExposure, 'ignoredArguments' | 'filterArguments'>;

/** One MCP tool: an exposure from the operations table, with the operation whose handler it calls. */
export interface McpToolDefinition extends McpToolExposure {
  operationId: OperationId;
}

/** Every MCP tool, read from the operations table (each entry's `mcp`), in table order. */
export const mcpTools: readonly McpToolDefinition[] = operationList.flatMap((operation) =>
  operation.mcp.map((tool) => ({ ...tool, operationId: operation.id as OperationId })),
);

const SCOPE_KEYS = { tenant_id: 'tenantId', user_id: 'userId', project_id: 'projectId' } as const;
/** Argument names that differ from the HTTP field beyond snake_case. */
const RENAMED = { retrieval_strategy: 'strategy' } as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Turns MCP tool arguments (snake_case, flat scope: `tenant_id`, `user_id`, `project_id`,
 * `retrieval_strategy`) into the operation's input. Only top-level keys are renamed; nested objects
 * (metadata, filters) keep their keys, except that snake_case keys of `filters` are accepted too.
 * Pass the tool's operation: one whose scope is not a `scope` object (`scopeSource` `fields`, as
 * `snapshot_session`) takes `tenantId`, `userId`, `projectId` at the top level, where a `scope` object would be dropped.
 */
export function inputFromMcpArguments(
  args: Record<string, unknown>,
  operation?: Pick<OperationDefinition, 'scopeSource'>,
  tool: McpArgumentRules = {},
): Record<string, unknown> {
  const flatScope = operation !== undefined && operation.scopeSource !== 'object';
  const input: Record<string, unknown> = {};
  const scope: Record<string, unknown> = {};
  const ignored = new Set(Object.keys(tool.ignoredArguments ?? {}).map(snakeToCamel));
  const filterFields = new Set((tool.filterArguments ?? []).map(snakeToCamel));
  const topLevelFilters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (ignored.has(snakeToCamel(key))) continue;
    if (filterFields.has(snakeToCamel(key))) {
      topLevelFilters[snakeToCamel(key)] = value;
    } else if (Object.hasOwn(SCOPE_KEYS, key)) {
      if (flatScope) input[SCOPE_KEYS[key as keyof typeof SCOPE_KEYS]] = value;
      else scope[SCOPE_KEYS[key as keyof typeof SCOPE_KEYS]] = value;
    } else if (Object.hasOwn(RENAMED, key)) {
      input[RENAMED[key as keyof typeof RENAMED]] = value;
    } else if (key === 'filters' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      input.filters = Object.fromEntries(Object.entries(value).map(([inner, v]) => [snakeToCamel(inner), v]));
    } else {
      input[snakeToCamel(key)] = value;
    }
  }
  if (Object.keys(scope).length > 0) {
    const given = input.scope && typeof input.scope === 'object' ? (input.scope as Record<string, unknown>) : {};
    input.scope = { ...given, ...scope };
  }
  for (const [key, value] of Object.entries(topLevelFilters)) {
    const filters = isPlainObject(input.filters) ? input.filters : {};
    // Given in both places: kept at the top level, where the strict input refuses it as unknown (never one silently).
    if (Object.hasOwn(filters, key)) input[key] = value;
    else input.filters = { ...filters, [key]: value };
  }
  return input;
}

/** The reverse of `inputFromMcpArguments`: an operation's input as MCP tool arguments. */
export function mcpArgumentsFromInput(input: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (key === 'scope' && value !== null && typeof value === 'object') {
      for (const [scopeKey, scopeValue] of Object.entries(value)) {
        if (scopeValue !== undefined) args[camelToSnake(scopeKey)] = scopeValue;
      }
    } else if (key === 'strategy') {
      args.retrieval_strategy = value;
    } else {
      args[camelToSnake(key)] = value;
    }
  }
  return args;
}

/** Finds a tool by name. */
export function findMcpTool(name: string): McpToolDefinition | undefined {
  return mcpTools.find((tool) => tool.name === name);
}
