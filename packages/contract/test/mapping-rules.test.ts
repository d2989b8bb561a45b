import { describe, expect, it } from 'vitest';
import {
  inputFieldOfMcpArgument,
  MCP_SCOPE_ARGUMENTS,
  mcpArgumentName,
  type OperationDefinition,
  operationList,
  operations,
  placeScope,
  requestScope,
  SCOPE_FIELDS,
  scopeLocation,
  strategyInRequestVocabulary,
} from '../src/index.js';

describe('where a request carries its scope', () => {
  it.each([
    ['object', 'object'],
    ['fields', 'fields'],
    ['subject', 'fields'],
    ['none', 'none'],
  ] as const)('scopeSource %s carries it in %s', (scopeSource, location) => {
    expect(scopeLocation({ scopeSource })).toBe(location);
  });

  it('reads the scope where the operation carries it, null where absent', () => {
    const input = { scope: { tenantId: 'acme', userId: 'ada' }, tenantId: 'other', projectId: 'web' };
    expect(requestScope(operations['memories.add'], input)).toEqual({
      tenantId: 'acme',
      userId: 'ada',
      projectId: null,
    });
    expect(requestScope(operations['sessions.list'], input)).toEqual({
      tenantId: 'other',
      userId: null,
      projectId: 'web',
    });
    expect(requestScope(operations.health, input)).toEqual({ tenantId: null, userId: null, projectId: null });
  });

  it.each(
    operationList
      .filter((operation) => scopeLocation(operation) !== 'none')
      .map((operation) => [operation.id, operation]),
  )('%s: the server reads back the scope a client placed', (_, operation) => {
    const definition = operation as OperationDefinition;
    const scope = { tenantId: 'acme', userId: 'ada', projectId: 'web' };
    const read = requestScope(definition, placeScope(definition, { scope }));
    for (const field of SCOPE_FIELDS) expect([scope[field], null]).toContain(read[field]);
    expect(Object.values(read).some((value) => value !== null)).toBe(true);
  });

  it("keeps a client's default scope away from the tenant a management route acts on", () => {
    const operation = operations['management.tenants.post'];
    expect(operation.scopeSource).toBe('subject');
    expect(placeScope(operation, { mode: 'provision' }, { tenantId: 'mine' })).toEqual({ mode: 'provision' });
    expect(placeScope(operation, { mode: 'provision', scope: { tenantId: 'acme' } }, { tenantId: 'mine' })).toEqual({
      mode: 'provision',
      tenantId: 'acme',
    });
  });
});

describe('MCP argument names', () => {
  it('are snake_case, with strategy as retrieval_strategy and the scope flat', () => {
    expect(mcpArgumentName('olderThanDays')).toBe('older_than_days');
    expect(mcpArgumentName('strategy')).toBe('retrieval_strategy');
    expect(mcpArgumentName('strategy', { nested: true })).toBe('strategy');
    expect(MCP_SCOPE_ARGUMENTS).toEqual({ tenantId: 'tenant_id', userId: 'user_id', projectId: 'project_id' });
  });

  it('read back into the input field they name', () => {
    for (const field of ['olderThanDays', 'strategy', 'sessionId', ...SCOPE_FIELDS]) {
      expect(inputFieldOfMcpArgument(mcpArgumentName(field))).toBe(field);
    }
  });
});

describe('strategy names in the vocabulary of the request', () => {
  it.each([
    ['hybrid', undefined, 'hybrid_graph'],
    ['lexical', 'baseline', 'baseline'],
    ['hybrid', 'hybrid_graph', 'hybrid_graph'],
    ['hybrid', 'hybrid', 'hybrid'],
    ['lexical', 'lexical', 'lexical'],
    ['hybrid', 'semantic', 'hybrid'],
  ] as const)('%s asked as %s is named %s', (strategy, requested, named) => {
    expect(strategyInRequestVocabulary(strategy, requested)).toBe(named);
  });
});
