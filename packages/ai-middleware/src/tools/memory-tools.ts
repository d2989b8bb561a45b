import type { Scope } from '@memory-service/contract';
import { type MemoryClientInput, resolveClient } from '../resolve-client.js';
import { type ContextTools, createContextTools } from './context-tools.js';
import { createMemoryRecordTools, type MemoryRecordTools } from './memory-record-tools.js';
import { createSessionTools, type SessionTools } from './session-tools.js';
import { createSkillTools, type SkillTools } from './skill-tools.js';
import { DEFAULT_TOOL_TIMEOUT_MS, type ToolContext } from './tool-context.js';

/** Every memory tool, by name: AI SDK `tool()` objects with zod input schemas. */
export type MemoryToolSet = ContextTools & MemoryRecordTools & SkillTools & SessionTools;

function createAllTools(context: ToolContext): MemoryToolSet {
  return {
    ...createContextTools(context),
    ...createMemoryRecordTools(context),
    ...createSkillTools(context),
    ...createSessionTools(context),
  };
}

/** The name of a memory tool. */
export type MemoryToolName = keyof MemoryToolSet;

/**
 * The tools `memoryTools` gives when `include` is omitted: read and write single memories. Listing, bulk forgetting,
 * skill files and sessions change or reveal more at once, so the app names them in `include` when it wants them.
 */
export const DEFAULT_MEMORY_TOOLS = [
  'getContext',
  'searchMemories',
  'addMemory',
  'editMemory',
  'forgetMemory',
] as const satisfies readonly MemoryToolName[];

/** The name of a tool of the default set. */
export type DefaultMemoryToolName = (typeof DEFAULT_MEMORY_TOOLS)[number];

/** Options of `memoryTools`. */
export interface MemoryToolsOptions<Name extends MemoryToolName = DefaultMemoryToolName> {
  /** A client from `@memory-service/client`, or `{ baseUrl, apiKey }` to make one. */
  client: MemoryClientInput;
  /** Tenant, user and project of every call; the model cannot change it. */
  scope?: Scope;
  /** Exactly these tools (default: `DEFAULT_MEMORY_TOOLS`); an unknown name throws. */
  include?: readonly Name[];
  /**
   * Let the model write rules: `addMemory`/`editMemory` with type or layer `rule`, edits and forgets of existing
   * rules, and bulk forgets naming the type `rule` (default `false`). Rules reach every later prompt as instructions to
   * always follow, so a model that was talked into writing one (prompt injection from a web page, a document, a tool
   * result) would keep obeying it, and one that forgot the app's rule would drop it for every user. Even so, a
   * user-scoped call never changes a shared rule: the server answers `MEMORY_SHARED_READ_ONLY`.
   */
  allowRuleWrites?: boolean;
  /**
   * Milliseconds one tool call may take, its memory calls and their retries included (default 5000). Past it the tool
   * answers `{ ok: false, error: { code: 'TIMEOUT', retryable: true } }` and the request in flight is aborted, so a
   * hung memory service cannot hold the tool loop. The model call's `abortSignal` aborts it too.
   */
  timeoutMs?: number;
}

/**
 * Memory tools for the AI SDK (`generateText`, `streamText`, agents). By default: get context, search, add, edit and
 * forget memories (`DEFAULT_MEMORY_TOOLS`); `include` names others: list and bulk-forget memories (a dry run unless
 * the model sets `dryRun: false`), skill files and sessions. Input schemas are the contract's request schemas without
 * `scope`. A failing call returns `{ ok: false, error }` for the model to read instead of throwing, and a call takes at
 * most `timeoutMs` (5 s by default). The model cannot write, edit or forget rules unless `allowRuleWrites` is set.
 *
 * @example
 * ```ts
 * const tools = memoryTools({ client, scope: { userId: 'u1' } }); // DEFAULT_MEMORY_TOOLS
 * await generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Remember that I prefer tabs.' });
 * const more = memoryTools({ client, scope: { userId: 'u1' }, include: [...DEFAULT_MEMORY_TOOLS, 'listMemories'] });
 * ```
 */
export function memoryTools<Name extends MemoryToolName = DefaultMemoryToolName>(
  options: MemoryToolsOptions<Name>,
): Pick<MemoryToolSet, Name> {
  const { timeoutMs = DEFAULT_TOOL_TIMEOUT_MS } = options;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2_147_483_647) {
    throw new TypeError('memoryTools: timeoutMs must be a positive number of milliseconds');
  }
  const all = createAllTools({
    client: resolveClient(options.client),
    scope: options.scope,
    allowRuleWrites: options.allowRuleWrites ?? false,
    timeoutMs,
  });
  const names: readonly MemoryToolName[] = options.include ?? DEFAULT_MEMORY_TOOLS;
  const picked: Partial<MemoryToolSet> = {};
  for (const name of names) {
    if (!Object.hasOwn(all, name)) throw new TypeError(`memoryTools: unknown tool '${String(name)}' in include`);
    Object.assign(picked, { [name]: all[name] });
  }
  // Without `include` nothing infers Name, so it is the type parameter's default: the default set's names.
  return picked as Pick<MemoryToolSet, Name>;
}
