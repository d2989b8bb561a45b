import { type McpToolExposure, type OperationDefinition, type OperationId, operationList } from './operations.js';
import { SCOPE_FIELDS, type ScopeField, scopeLocation } from './scope-placement.js';

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

/**
 * Input fields whose MCP argument is not their snake_case name: memories.sh's tools call `strategy`
 * `retrieval_strategy`.
 */
export const MCP_RENAMED_ARGUMENTS: Readonly<Record<string, string>> = { strategy: 'retrieval_strategy' };

/** Objects of an input whose keys MCP accepts, and advertises, in snake_case too (not renamed otherwise). */
export const MCP_SNAKE_CASE_OBJECTS: readonly string[] = ['filters'];

function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * The MCP argument name of an input field: its snake_case name, or its `MCP_RENAMED_ARGUMENTS` name. Keys inside
 * an object of `MCP_SNAKE_CASE_OBJECTS` (`nested`) are only put in snake_case: renames apply at the top level.
 */
export function mcpArgumentName(field: string, { nested = false }: { nested?: boolean } = {}): string {
  return (nested ? undefined : MCP_RENAMED_ARGUMENTS[field]) ?? camelToSnake(field);
}

const INPUT_FIELD_OF_RENAMED = Object.fromEntries(
  Object.entries(MCP_RENAMED_ARGUMENTS).map(([field, argument]) => [argument, field]),
);

/** The input field an MCP argument stands for: the reverse of `mcpArgumentName` (`nested` as there). */
export function inputFieldOfMcpArgument(argument: string, { nested = false }: { nested?: boolean } = {}): string {
  return (nested ? undefined : INPUT_FIELD_OF_RENAMED[argument]) ?? snakeToCamel(argument);
}

/** The MCP argument of each scope field (`tenant_id`, `user_id`, `project_id`): MCP tools take the scope flat. */
export const MCP_SCOPE_ARGUMENTS = Object.fromEntries(
  SCOPE_FIELDS.map((field) => [field, mcpArgumentName(field)]),
) as Readonly<Record<ScopeField, string>>;

const SCOPE_FIELD_OF_ARGUMENT: Readonly<Record<string, ScopeField>> = Object.fromEntries(
  SCOPE_FIELDS.map((field) => [MCP_SCOPE_ARGUMENTS[field], field]),
);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Turns MCP tool arguments (`mcpArgumentName`: snake_case, `retrieval_strategy`; flat scope: `MCP_SCOPE_ARGUMENTS`)
 * into the operation's input. Only top-level keys are renamed; nested objects (metadata, filters) keep their keys,
 * except that snake_case keys of `MCP_SNAKE_CASE_OBJECTS` are accepted too. Pass the tool's operation: one whose
 * scope is not a `scope` object (`scopeLocation`: `snapshot_session`'s `fields`) takes `tenantId`, `userId`,
 * `projectId` at the top level, where a `scope` object would be dropped.
 */
export function inputFromMcpArguments(
  args: Record<string, unknown>,
  operation?: Pick<OperationDefinition, 'scopeSource'>,
  tool: McpArgumentRules = {},
): Record<string, unknown> {
  const flatScope = operation !== undefined && scopeLocation(operation) !== 'object';
  const input: Record<string, unknown> = {};
  const scope: Record<string, unknown> = {};
  const ignored = new Set(Object.keys(tool.ignoredArguments ?? {}).map(snakeToCamel));
  const filterFields = new Set((tool.filterArguments ?? []).map(snakeToCamel));
  const topLevelFilters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (ignored.has(snakeToCamel(key))) continue;
    if (filterFields.has(snakeToCamel(key))) {
      topLevelFilters[snakeToCamel(key)] = value;
    } else if (Object.hasOwn(SCOPE_FIELD_OF_ARGUMENT, key)) {
      if (flatScope) input[SCOPE_FIELD_OF_ARGUMENT[key] as ScopeField] = value;
      else scope[SCOPE_FIELD_OF_ARGUMENT[key] as ScopeField] = value;
    } else if (MCP_SNAKE_CASE_OBJECTS.includes(key) && isPlainObject(value)) {
      input[key] = Object.fromEntries(
        Object.entries(value).map(([inner, v]) => [inputFieldOfMcpArgument(inner, { nested: true }), v]),
      );
    } else {
      input[inputFieldOfMcpArgument(key)] = value;
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
        const name = Object.hasOwn(MCP_SCOPE_ARGUMENTS, scopeKey)
          ? MCP_SCOPE_ARGUMENTS[scopeKey as ScopeField]
          : mcpArgumentName(scopeKey, { nested: true });
        if (scopeValue !== undefined) args[name] = scopeValue;
      }
    } else {
      args[mcpArgumentName(key)] = value;
    }
  }
  return args;
}

/** Finds a tool by name. */
export function findMcpTool(name: string): McpToolDefinition | undefined {
  return mcpTools.find((tool) => tool.name === name);
}
