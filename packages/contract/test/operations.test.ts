import { describe, expect, it } from 'vitest';
import {
  type AuthKind,
  buildPath,
  ERROR_CODES,
  type ErrorCode,
  type FeatureFlag,
  findMcpTool,
  type HttpMethod,
  inputFromMcpArguments,
  isErrorCode,
  mcpArgumentsFromInput,
  mcpTools,
  type OperationDefinition,
  type OperationId,
  operationErrorCodes,
  operationList,
  operations,
  zodErrorToApiError,
} from '../src/index.js';

/** The contract's route summary, one row per route+method, written out. */
const contractRoutes: ReadonlyArray<readonly [method: HttpMethod, path: string, auth: AuthKind]> = [
  ['GET', '/health', 'none'],
  ['POST', '/context/get', 'apiKey'],
  ['POST', '/memories/add', 'apiKey'],
  ['POST', '/memories/search', 'apiKey'],
  ['POST', '/memories/list', 'apiKey'],
  ['POST', '/memories/edit', 'apiKey'],
  ['POST', '/memories/forget', 'apiKey'],
  ['POST', '/memories/bulk-forget', 'apiKey'],
  ['POST', '/memories/vacuum', 'apiKey'],
  ['POST', '/memories/consolidate', 'apiKey'],
  ['POST', '/skills/files/upsert', 'apiKey'],
  ['POST', '/skills/files/list', 'apiKey'],
  ['POST', '/skills/files/delete', 'apiKey'],
  ['POST', '/skills/files/promote', 'apiKey'],
  ['POST', '/sessions/start', 'apiKey'],
  ['POST', '/sessions/checkpoint', 'apiKey'],
  ['POST', '/sessions/end', 'apiKey'],
  ['GET', '/sessions/{sessionId}/snapshot', 'apiKey'],
  ['GET', '/embeddings/models', 'apiKeyOrSession'],
  ['GET', '/graph/status', 'apiKey'],
  ['POST', '/graph/status', 'apiKey'],
  ['POST', '/graph/trace', 'apiKey'],
  ['GET', '/graph/rollout', 'apiKey'],
  ['POST', '/graph/rollout', 'apiKey'],
  ['PATCH', '/graph/rollout', 'apiKey'],
  ['GET', '/management/keys', 'management'],
  ['POST', '/management/keys', 'management'],
  ['DELETE', '/management/keys', 'management'],
  ['GET', '/management/tenant-overrides', 'apiKeyOrSession'],
  ['POST', '/management/tenant-overrides', 'apiKeyOrSession'],
  ['DELETE', '/management/tenant-overrides', 'apiKeyOrSession'],
  ['GET', '/management/embeddings/usage', 'apiKeyOrSession'],
  ['GET', '/management/embeddings/backfill', 'apiKeyOrSession'],
  ['POST', '/management/embeddings/backfill', 'apiKeyOrSession'],
  ['GET', '/management/embeddings/observability', 'apiKeyOrSession'],
  ['GET', '/management/memory/observability', 'apiKeyOrSession'],
  ['POST', '/management/memory/eval/replay', 'apiKeyOrSession'],
];

/**
 * Routes beyond the written contract (README, "Fields beyond the written contract"), with the MCP tools each has: the
 * web console's have none; reading one memory and its history are tools too (`get_memory`, `get_memory_history`), added
 * beside the contract's, whose names stay exactly as they are.
 */
const extensionRoutes: ReadonlyArray<
  readonly [method: HttpMethod, path: string, auth: AuthKind, tools: readonly string[]]
> = [
  ['GET', '/memories/{id}', 'apiKey', ['get_memory']],
  ['GET', '/memories/{id}/history', 'apiKey', ['get_memory_history']],
  ['POST', '/memories/restore', 'apiKey', []],
  ['GET', '/sessions', 'apiKey', []],
  ['GET', '/sessions/{sessionId}/events', 'apiKey', []],
  ['GET', '/management/export', 'management', []],
  ['POST', '/management/import', 'management', []],
  ['POST', '/management/users/erase', 'management', []],
];

/** Routes whose success status the contract states as 201; every other route answers 200 ("unless stated"). */
const createdRoutes = ['POST /memories/add', 'POST /sessions/start', 'POST /skills/files/promote'];

/** Feature flags the contract puts on routes. */
const flaggedRoutes: Record<string, FeatureFlag> = {
  'POST /memories/consolidate': 'MEMORY_CONSOLIDATION_ENABLED',
  'POST /skills/files/promote': 'MEMORY_PROCEDURAL_ENABLED',
  'POST /sessions/start': 'MEMORY_SESSION_ENABLED',
  'POST /sessions/checkpoint': 'MEMORY_SESSION_ENABLED',
  'POST /sessions/end': 'MEMORY_SESSION_ENABLED',
  'GET /sessions/{sessionId}/snapshot': 'MEMORY_SESSION_ENABLED',
};

/** Error codes the contract lists per endpoint (each must be in the operation's codes). */
const contractRouteErrors: Record<string, readonly ErrorCode[]> = {
  'POST /memories/search': ['QUERY_REQUIRED'],
  'POST /memories/consolidate': ['MEMORY_CONSOLIDATION_DISABLED', 'INVALID_REQUEST'],
  'POST /skills/files/promote': [
    'MEMORY_PROCEDURAL_DISABLED',
    'SESSION_ID_REQUIRED',
    'SKILL_FILE_PATH_REQUIRED',
    'SESSION_SNAPSHOT_NOT_FOUND',
  ],
  'POST /sessions/start': ['MEMORY_SESSION_DISABLED', 'INVALID_REQUEST'],
  'POST /sessions/checkpoint': [
    'MEMORY_SESSION_DISABLED',
    'SESSION_ID_REQUIRED',
    'SESSION_CONTENT_REQUIRED',
    'SESSION_NOT_FOUND',
    'SESSION_NOT_ACTIVE',
  ],
  'POST /sessions/end': [
    'MEMORY_SESSION_DISABLED',
    'SESSION_ID_REQUIRED',
    'INVALID_SESSION_STATUS',
    'SESSION_NOT_FOUND',
    'SESSION_NOT_ACTIVE',
  ],
  'GET /sessions/{sessionId}/snapshot': ['MEMORY_SESSION_DISABLED', 'SESSION_NOT_FOUND', 'SESSION_SNAPSHOT_NOT_FOUND'],
  'POST /graph/rollout': ['CANARY_ROLLOUT_BLOCKED', 'INVALID_REQUEST'],
  'PATCH /graph/rollout': ['CANARY_ROLLOUT_BLOCKED', 'INVALID_REQUEST'],
  'POST /context/get': ['TENANT_ID_INVALID', 'USER_ID_INVALID', 'TENANT_DATABASE_NOT_CONFIGURED'],
};

function routeKey(operation: Pick<OperationDefinition, 'method' | 'path'>): string {
  return `${operation.method} ${operation.path}`;
}

function findOperations(method: HttpMethod, path: string): OperationDefinition[] {
  return operationList.filter((operation) => operation.method === method && operation.path === path);
}

describe('the operations table against the contract route summary', () => {
  it('has the 37 route+method pairs of the contract, the 5 extensions and nothing else', () => {
    expect(contractRoutes).toHaveLength(37);
    expect(operationList).toHaveLength(37 + extensionRoutes.length);
    expect(operationList.map(routeKey).sort()).toEqual(
      [...contractRoutes, ...extensionRoutes].map(([method, path]) => `${method} ${path}`).sort(),
    );
  });

  describe.each(extensionRoutes)('extension %s %s', (method, path, auth, tools) => {
    it(`is authenticated by ${auth}, says it is an extension, and has the MCP tools ${tools.join(', ') || '(none)'}`, () => {
      const [operation] = findOperations(method, path);
      expect(operation?.auth).toBe(auth);
      expect(operation?.description).toMatch(/^An extension beyond the written contract/);
      expect(operation?.mcp.map((tool) => tool.name)).toEqual(tools);
    });
  });

  describe.each(contractRoutes)('%s %s', (method, path, auth) => {
    const key = `${method} ${path}`;

    it('is in operationList exactly once', () => {
      expect(findOperations(method, path)).toHaveLength(1);
    });

    it(`is authenticated by ${auth}`, () => {
      expect(findOperations(method, path)[0]?.auth).toBe(auth);
    });

    const expectedStatus = createdRoutes.includes(key) ? 201 : 200;
    it(`answers ${expectedStatus} on success`, () => {
      expect(findOperations(method, path)[0]?.successStatus).toBe(expectedStatus);
    });

    const flag = flaggedRoutes[key];
    it(flag ? `requires ${flag}` : 'has no feature flag', () => {
      expect(findOperations(method, path)[0]?.featureFlag).toBe(flag);
    });

    const expectedInput = method === 'GET' || method === 'DELETE' ? 'query' : 'body';
    it(`reads its input from the ${expectedInput}`, () => {
      expect(findOperations(method, path)[0]?.inputLocation).toBe(expectedInput);
    });

    it('lists the error codes the contract gives for it', () => {
      const operation = findOperations(method, path)[0];
      expect(operation).toBeDefined();
      if (!operation) return;
      const codes = operationErrorCodes(operation);
      for (const code of contractRouteErrors[key] ?? []) expect(codes).toContain(code);
      // A disabled flag answers 403 with the flag's code (MEMORY_SESSION_ENABLED -> MEMORY_SESSION_DISABLED).
      if (flag) {
        const disabledCode = flag.replace(/_ENABLED$/, '_DISABLED');
        expect(codes).toContain(disabledCode);
        expect(isErrorCode(disabledCode) && ERROR_CODES[disabledCode].status).toBe(403);
      }
      if (auth === 'none') expect(codes).not.toContain('MISSING_API_KEY');
      else expect(codes).toEqual(expect.arrayContaining(['MISSING_API_KEY', 'INVALID_API_KEY', 'RATE_LIMITED']));
    });
  });

  it('promote also answers 200 when it updates an existing file', () => {
    expect(operations['skills.promote'].alternateStatuses).toEqual([200]);
  });

  it('ids are unique and key the table', () => {
    const ids = operationList.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, operation] of Object.entries(operations)) expect(operation.id).toBe(key);
  });

  it('every path parameter is in the path and in the input schema', () => {
    for (const operation of operationList) {
      const inPath = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(inPath, operation.id).toEqual([...operation.pathParams]);
      for (const name of operation.pathParams) {
        // The input schema requires the parameter, and accepts it once given.
        const missing = operation.input.safeParse({});
        expect(
          missing.error?.issues.map((issue) => issue.path.join('.')),
          operation.id,
        ).toContain(name);
        expect(operation.input.safeParse({ [name]: 'value' }).success, operation.id).toBe(true);
      }
    }
    expect(operations['sessions.snapshot'].pathParams).toEqual(['sessionId']);
  });

  it('field code rules only name codes the route declares', () => {
    for (const operation of operationList) {
      for (const rule of operation.fieldCodes ?? [])
        expect(operationErrorCodes(operation), operation.id).toContain(rule.code);
    }
  });

  it('buildPath fills and encodes path parameters', () => {
    expect(buildPath(operations['sessions.snapshot'], { sessionId: 'a b/c' })).toBe('/sessions/a%20b%2Fc/snapshot');
    expect(buildPath(operations['memories.add'], {})).toBe('/memories/add');
  });
});

describe('MCP tools', () => {
  const designTools = [
    'get_context',
    'get_rules',
    'add_memory',
    'edit_memory',
    'forget_memory',
    'search_memories',
    'list_memories',
    'bulk_forget_memories',
    'vacuum_memories',
    'consolidate_memories',
    'start_session',
    'checkpoint_session',
    'end_session',
    'snapshot_session',
    'upsert_skill_file',
    'list_skill_files',
    'delete_skill_file',
    'promote_skill_file',
  ];

  it('every tool names an existing operation', () => {
    for (const tool of mcpTools) {
      expect(Object.hasOwn(operations, tool.operationId), tool.name).toBe(true);
      expect(tool.description.length, tool.name).toBeGreaterThan(0);
    }
  });

  it('tool names are unique and include every tool of docs/architecture.md#mcp', () => {
    const names = mcpTools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(designTools));
  });

  it('the tool list is read from the table: each tool of an entry, and nothing else', () => {
    const fromTable = operationList.flatMap((operation) => operation.mcp.map((tool) => `${tool.name} ${operation.id}`));
    expect(mcpTools.map((tool) => `${tool.name} ${tool.operationId}`)).toEqual(fromTable);
    for (const { operationId, ...tool } of mcpTools) expect(operations[operationId].mcp).toContainEqual(tool);
  });

  it('keeps exactly the tool names real MCP clients call', () => {
    const extensionTools = extensionRoutes.flatMap(([, , , tools]) => tools);
    expect(mcpTools.map((tool) => tool.name).sort()).toEqual([...designTools, 'trace_graph', ...extensionTools].sort());
  });

  it("an operation's first tool takes its whole input; only further tools fix part of it", () => {
    for (const operation of operationList) {
      const [first, ...others] = operation.mcp;
      if (first === undefined) continue;
      expect(first.fixedInput, operation.id).toBeUndefined();
      for (const tool of others) expect(tool.fixedInput, tool.name).toBeDefined();
    }
  });

  it('management routes are not exposed as tools', () => {
    const exposed = new Set<string>(mcpTools.map((tool) => tool.operationId));
    for (const operation of operationList) {
      if (operation.path.startsWith('/management/')) expect(exposed.has(operation.id), operation.id).toBe(false);
    }
  });

  it('get_rules forces rules_only, and its fixed input is valid for context/get', () => {
    const tool = findMcpTool('get_rules');
    expect(tool?.fixedInput).toMatchObject({ mode: 'rules_only' });
    expect(operations['context.get'].input.safeParse(tool?.fixedInput).success).toBe(true);
  });

  it('findMcpTool returns undefined for an unknown name', () => {
    expect(findMcpTool('drop_database')).toBeUndefined();
  });
});

describe('MCP arguments and operation input', () => {
  it('maps snake_case arguments and the flat scope into the input', () => {
    const input = inputFromMcpArguments({
      query: 'deploy steps',
      tenant_id: 'acme',
      user_id: 'user-1',
      project_id: 'repo/web',
      retrieval_strategy: 'hybrid_graph',
      graph_depth: 2,
      include_skill_files: false,
    });
    expect(input).toEqual({
      query: 'deploy steps',
      scope: { tenantId: 'acme', userId: 'user-1', projectId: 'repo/web' },
      strategy: 'hybrid_graph',
      graphDepth: 2,
      includeSkillFiles: false,
    });
    expect(operations['context.get'].input.safeParse(input).success).toBe(true);
  });

  it('keeps nested objects, and reads snake_case keys of filters', () => {
    const input = inputFromMcpArguments({
      filters: { older_than_days: 30, types: ['note'] },
      dry_run: true,
      metadata: { source_file: 'a.md' },
    });
    expect(input).toEqual({
      filters: { olderThanDays: 30, types: ['note'] },
      dryRun: true,
      metadata: { source_file: 'a.md' },
    });
    const { metadata, ...bulkForget } = input;
    expect(operations['memories.bulkForget'].input.safeParse(bulkForget).success).toBe(true);
    expect(operations['memories.add'].input.safeParse({ content: 'note', metadata }).success).toBe(true);
  });

  it.each([
    {
      query: 'deploy',
      strategy: 'lexical',
      limit: 7,
      graphDepth: 0,
      includeRules: false,
      scope: { tenantId: 'acme', userId: 'u1', projectId: 'repo' },
    },
    { sessionId: 's1', content: 'progress', isMeaningful: true, turnIndex: 3, scope: { tenantId: 'acme' } },
    { filters: { olderThanDays: 30, pattern: 'tmp*' }, dryRun: true },
    { content: 'note', metadata: { nested_key: 1, camelKey: 2 }, tags: ['a'] },
  ])('round-trips %j', (input) => {
    expect(inputFromMcpArguments(mcpArgumentsFromInput(input))).toEqual(input);
  });

  it('keeps the scope flat for snapshot_session, whose input is read from the query string', () => {
    const operation = operations['sessions.snapshot'];
    const input = { sessionId: 's1', tenantId: 'acme', userId: 'u1', projectId: 'repo' };
    const args = mcpArgumentsFromInput(input);
    expect(args).toEqual({ session_id: 's1', tenant_id: 'acme', user_id: 'u1', project_id: 'repo' });
    expect(inputFromMcpArguments(args, operation)).toEqual(input);
    expect(operation.input.parse(inputFromMcpArguments(args, operation))).toEqual(input);
  });

  // Minimal valid input of every operation exposed as a tool, in the shape a client sends it.
  const toolInputs: Record<string, Record<string, unknown>> = {
    'context.get': {},
    'memories.add': { content: 'note' },
    'memories.edit': { id: 'm1', content: 'note' },
    'memories.forget': { id: 'm1' },
    'memories.search': { query: 'deploy' },
    'memories.list': {},
    'memories.get': { id: 'm1' },
    'memories.history': { id: 'm1' },
    'memories.bulkForget': { all: true },
    'memories.vacuum': {},
    'memories.consolidate': {},
    'sessions.start': {},
    'sessions.checkpoint': { sessionId: 's1', content: 'progress' },
    'sessions.end': { sessionId: 's1' },
    'sessions.snapshot': { sessionId: 's1' },
    'skills.upsert': { path: 'skills/a.md', content: '# A' },
    'skills.list': {},
    'skills.delete': { path: 'skills/a.md' },
    'skills.promote': { sessionId: 's1', path: 'skills/a.md' },
    'graph.trace': {},
  };

  it.each(mcpTools.map((tool) => [tool.name, tool] as const))(
    '%s: the tenant survives client input -> arguments -> server input -> schema',
    (_, tool) => {
      const operation: OperationDefinition = operations[tool.operationId];
      const base = toolInputs[tool.operationId];
      expect(base, `no sample input for ${tool.operationId}`).toBeDefined();
      const scope = { tenantId: 'acme', userId: 'u1' };
      const clientInput = operation.inputLocation === 'query' ? { ...base, ...scope } : { ...base, scope };
      const serverInput = {
        ...inputFromMcpArguments(mcpArgumentsFromInput(clientInput), operation),
        ...tool.fixedInput,
      };
      const parsed = operation.input.parse(serverInput);
      if (operation.inputLocation === 'query') expect(parsed).toMatchObject(scope);
      else expect(parsed).toMatchObject({ scope });
    },
  );

  it('writes the scope flat and the strategy as retrieval_strategy', () => {
    expect(mcpArgumentsFromInput({ strategy: 'hybrid', scope: { tenantId: 'acme' }, maxSteps: 5 })).toEqual({
      retrieval_strategy: 'hybrid',
      tenant_id: 'acme',
      max_steps: 5,
    });
  });
});

describe('request rules', () => {
  function parse(operationId: OperationId, input: Record<string, unknown>) {
    const operation: OperationDefinition = operations[operationId];
    const result = operation.input.safeParse(input);
    return {
      result,
      error: result.success ? undefined : zodErrorToApiError(result.error, input, operation.fieldCodes),
    };
  }

  describe('memories/bulk-forget', () => {
    it.each([
      { filters: { types: ['note'] } },
      { filters: { tags: ['tmp'] } },
      { filters: { olderThanDays: 30 } },
      { filters: { pattern: 'draft *' } },
      { filters: { types: ['note'], tags: ['tmp'], projectId: 'repo' } },
      { all: true },
      { all: true, filters: {} },
    ])('accepts %j', (input) => {
      expect(parse('memories.bulkForget', input).result.success).toBe(true);
    });

    it.each([{}, { filters: {} }, { all: false }, { filters: { projectId: 'repo' } }])(
      'rejects %j: at least one filter or all is required',
      (input) => {
        expect(parse('memories.bulkForget', input).error).toMatchObject({
          code: 'INVALID_REQUEST',
          details: { field: 'filters' },
        });
      },
    );

    it.each([{ types: ['note'] }, { tags: ['tmp'] }, { olderThanDays: 1 }, { pattern: '*' }, { projectId: 'repo' }])(
      'rejects all combined with filters %j',
      (filters) => {
        expect(parse('memories.bulkForget', { all: true, filters }).error).toMatchObject({
          code: 'INVALID_REQUEST',
          details: { field: 'all' },
        });
      },
    );

    it('defaults dryRun and all to false', () => {
      expect(parse('memories.bulkForget', { filters: { tags: ['tmp'] } }).result.data).toMatchObject({
        all: false,
        dryRun: false,
      });
    });
  });

  describe('memories/edit', () => {
    it.each([{ id: 'm1' }, { id: 'm1', embeddingModel: 'local/hash-384' }, { id: 'm1', scope: { tenantId: 'acme' } }])(
      'rejects %j: no editable field',
      (input) => {
        expect(parse('memories.edit', input).error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
      },
    );

    it.each([
      { content: 'new text' },
      { type: 'fact' },
      { layer: 'working' },
      { tags: ['a'] },
      { paths: ['src/a.ts'] },
      { category: 'ops' },
      { metadata: { source: 'chat' } },
    ])('accepts id with %j', (fields) => {
      expect(parse('memories.edit', { id: 'm1', ...fields }).result.success).toBe(true);
    });

    it('rejects a missing id', () => {
      expect(parse('memories.edit', { content: 'text' }).error).toMatchObject({ details: { field: 'id' } });
    });
  });

  describe('unknown fields are refused (docs/architecture.md#the-operations-table: a misplaced userId must never widen who sees a memory)', () => {
    it('refuses unknown body fields, top-level or inside scope, naming the field', () => {
      expect(parse('memories.add', { content: 'note', color: 'blue' }).error).toMatchObject({
        code: 'INVALID_REQUEST',
        status: 400,
        details: { field: 'color' },
      });
      expect(parse('memories.add', { content: 'note', scope: { tenantId: 'acme', region: 'eu' } }).error).toMatchObject(
        { code: 'INVALID_REQUEST', details: { field: 'scope.region' } },
      );
    });

    it('refuses client-only lifecycle hints on context/get: client libraries keep them', () => {
      expect(parse('context.get', { query: 'deploy', sessionId: 's1', budgetTokens: 4000 }).error).toMatchObject({
        code: 'INVALID_REQUEST',
        details: { field: 'sessionId' },
      });
    });

    it('refuses unknown query parameters of GET routes', () => {
      expect(parse('management.memory.observability', { windowHours: '24', debug: '1' }).error).toMatchObject({
        code: 'INVALID_REQUEST',
        details: { field: 'debug' },
      });
      expect(parse('management.memory.observability', { windowHours: '24' }).result.data).toEqual({
        windowHours: 24,
      });
    });
  });
});
