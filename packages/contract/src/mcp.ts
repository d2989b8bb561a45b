import type { OperationDefinition, OperationId } from './operations.js';

/** One MCP tool: a name, the operation whose handler it calls, and input it always sets. */
export interface McpToolDefinition {
  name: string;
  operationId: OperationId;
  description: string;
  /** Input merged over the caller's arguments (get_rules forces `mode: rules_only`). */
  fixedInput?: Record<string, unknown>;
}

/** The MCP tools of DESIGN 7, each mapped to an operation of the table. */
export const mcpTools: readonly McpToolDefinition[] = [
  {
    name: 'get_context',
    operationId: 'context.get',
    description:
      'Get the memory context bundle for a query: rules, relevant memories, skill files and a retrieval trace.',
  },
  {
    name: 'get_rules',
    operationId: 'context.get',
    description: 'Get the standing rules for the scope.',
    fixedInput: { mode: 'rules_only', includeRules: true },
  },
  {
    name: 'add_memory',
    operationId: 'memories.add',
    description: 'Store a memory (a rule, decision, fact, note or skill).',
  },
  { name: 'edit_memory', operationId: 'memories.edit', description: 'Edit a stored memory by id.' },
  { name: 'forget_memory', operationId: 'memories.forget', description: 'Soft-delete a memory by id.' },
  { name: 'search_memories', operationId: 'memories.search', description: 'Search memories by text.' },
  {
    name: 'list_memories',
    operationId: 'memories.list',
    description: 'List memories, newest first, optionally by type, layer or tags.',
  },
  {
    name: 'bulk_forget_memories',
    operationId: 'memories.bulkForget',
    description: 'Soft-delete memories matching filters; use dry_run to preview.',
  },
  {
    name: 'vacuum_memories',
    operationId: 'memories.vacuum',
    description: 'Permanently purge soft-deleted memories in scope.',
  },
  {
    name: 'consolidate_memories',
    operationId: 'memories.consolidate',
    description: 'Merge duplicate memories and supersede stale ones.',
  },
  { name: 'start_session', operationId: 'sessions.start', description: 'Start a working session.' },
  {
    name: 'checkpoint_session',
    operationId: 'sessions.checkpoint',
    description: 'Append a checkpoint event to an active session.',
  },
  {
    name: 'end_session',
    operationId: 'sessions.end',
    description: 'End a session as closed or compacted and write its snapshot.',
  },
  { name: 'snapshot_session', operationId: 'sessions.snapshot', description: "Read a session's latest snapshot." },
  { name: 'upsert_skill_file', operationId: 'skills.upsert', description: 'Create or update a skill file by path.' },
  { name: 'list_skill_files', operationId: 'skills.list', description: 'List skill files.' },
  { name: 'delete_skill_file', operationId: 'skills.delete', description: 'Soft-delete a skill file by path.' },
  {
    name: 'promote_skill_file',
    operationId: 'skills.promote',
    description: 'Promote a session snapshot into a procedural skill file.',
  },
  {
    name: 'trace_graph',
    operationId: 'graph.trace',
    description: 'Explain a retrieval: strategy, tiers, and why each memory was recalled.',
  },
];

const SCOPE_KEYS = { tenant_id: 'tenantId', user_id: 'userId', project_id: 'projectId' } as const;
/** Argument names that differ from the HTTP field beyond snake_case. */
const RENAMED = { retrieval_strategy: 'strategy' } as const;

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
 * Pass the tool's operation: an operation that reads its input from the query string (`snapshot_session`)
 * takes `tenantId`, `userId`, `projectId` at the top level, where a `scope` object would be dropped.
 */
export function inputFromMcpArguments(
  args: Record<string, unknown>,
  operation?: Pick<OperationDefinition, 'inputLocation'>,
): Record<string, unknown> {
  const flatScope = operation?.inputLocation === 'query';
  const input: Record<string, unknown> = {};
  const scope: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (Object.hasOwn(SCOPE_KEYS, key)) {
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
