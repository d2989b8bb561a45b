import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  type ApiErrorObject,
  DEFAULTS,
  type ErrorCode,
  LIMITS,
  MetadataSchema,
  nestingProblem,
  type OperationDefinition,
  type OperationId,
  operationList,
  operations,
  zodErrorToApiError,
} from '../src/index.js';

// Every number below is written out from the contract's Limits table (http-contract-v1.md), not read from
// LIMITS, so a drift between the schemas and the contract fails here.

type Input = Record<string, unknown>;

function operationFor(operationId: OperationId): OperationDefinition {
  return operations[operationId];
}

/** Parses `input` with the operation's real input schema; fails the test on a rejection. */
function accept(operationId: OperationId, input: Input): unknown {
  const result = operationFor(operationId).input.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`${operationId} rejected a valid input at ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return result.data;
}

/** Parses `input`, expects a rejection, and returns the API error the server answers with. */
function reject(operationId: OperationId, input: Input): ApiErrorObject {
  const operation = operationFor(operationId);
  const result = operation.input.safeParse(input);
  if (result.success) throw new Error(`${operationId} accepted an input it must reject`);
  return zodErrorToApiError(result.error, input, operation.fieldCodes);
}

function expectFieldError(error: ApiErrorObject, code: ErrorCode, field: string): void {
  expect(error).toMatchObject({ code, status: 400, type: 'validation_error', retryable: false, details: { field } });
}

function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function text(length: number): string {
  return 'x'.repeat(length);
}

interface StringLimitCase {
  operation: OperationId;
  /** The dotted path `details.field` must name. */
  field: string;
  /** Shortest accepted length: 0 where the contract only gives a maximum. */
  min: number;
  max: number;
  build: (value: string) => Input;
  /** The code for an empty string where the contract names one (else INVALID_REQUEST). */
  emptyCode?: ErrorCode;
}

const tagsBefore = ['alpha', 'beta', 'gamma'];
const ninetyNinePaths = Array.from({ length: 99 }, (_, index) => `src/file-${index}.ts`);

const stringLimits: StringLimitCase[] = [
  { operation: 'context.get', field: 'query', min: 0, max: 500, build: (query) => ({ query }) },
  { operation: 'graph.trace', field: 'query', min: 0, max: 500, build: (query) => ({ query }) },
  {
    operation: 'memories.search',
    field: 'query',
    min: 1,
    max: 500,
    build: (query) => ({ query }),
    emptyCode: 'QUERY_REQUIRED',
  },
  { operation: 'memories.add', field: 'content', min: 1, max: 8000, build: (content) => ({ content }) },
  { operation: 'memories.edit', field: 'content', min: 1, max: 8000, build: (content) => ({ id: 'm1', content }) },
  {
    operation: 'memories.add',
    field: 'tags.3',
    min: 1,
    max: 120,
    build: (tag) => ({ content: 'note', tags: [...tagsBefore, tag] }),
  },
  {
    operation: 'memories.edit',
    field: 'tags.3',
    min: 1,
    max: 120,
    build: (tag) => ({ id: 'm1', tags: [...tagsBefore, tag] }),
  },
  // The 100th path: the largest list with its last item at the boundary.
  {
    operation: 'memories.add',
    field: 'paths.99',
    min: 1,
    max: 300,
    build: (path) => ({ content: 'note', paths: [...ninetyNinePaths, path] }),
  },
  {
    operation: 'memories.edit',
    field: 'paths.99',
    min: 1,
    max: 300,
    build: (path) => ({ id: 'm1', paths: [...ninetyNinePaths, path] }),
  },
  { operation: 'memories.add', field: 'category', min: 1, max: 120, build: (category) => ({ content: 'n', category }) },
  { operation: 'memories.edit', field: 'category', min: 1, max: 120, build: (category) => ({ id: 'm1', category }) },
  {
    operation: 'sessions.checkpoint',
    field: 'sessionId',
    min: 1,
    max: 120,
    build: (sessionId) => ({ sessionId, content: 'progress' }),
    emptyCode: 'SESSION_ID_REQUIRED',
  },
  {
    operation: 'sessions.end',
    field: 'sessionId',
    min: 1,
    max: 120,
    build: (sessionId) => ({ sessionId }),
    emptyCode: 'SESSION_ID_REQUIRED',
  },
  {
    operation: 'skills.promote',
    field: 'sessionId',
    min: 1,
    max: 120,
    build: (sessionId) => ({ sessionId, path: 'skills/deploy.md' }),
    emptyCode: 'SESSION_ID_REQUIRED',
  },
  { operation: 'sessions.snapshot', field: 'sessionId', min: 1, max: 120, build: (sessionId) => ({ sessionId }) },
  {
    operation: 'sessions.checkpoint',
    field: 'content',
    min: 1,
    max: 16000,
    build: (content) => ({ sessionId: 's1', content }),
    emptyCode: 'SESSION_CONTENT_REQUIRED',
  },
  { operation: 'sessions.start', field: 'title', min: 1, max: 240, build: (title) => ({ title }) },
  { operation: 'sessions.start', field: 'client', min: 1, max: 120, build: (client) => ({ client }) },
  { operation: 'memories.consolidate', field: 'model', min: 1, max: 160, build: (model) => ({ model }) },
  {
    operation: 'skills.upsert',
    field: 'path',
    min: 1,
    max: 400,
    build: (path) => ({ path, content: '# Steps' }),
  },
  { operation: 'skills.delete', field: 'path', min: 1, max: 400, build: (path) => ({ path }) },
  {
    operation: 'skills.promote',
    field: 'path',
    min: 1,
    max: 400,
    build: (path) => ({ sessionId: 's1', path }),
    emptyCode: 'SKILL_FILE_PATH_REQUIRED',
  },
  {
    operation: 'skills.promote',
    field: 'title',
    min: 1,
    max: 200,
    build: (title) => ({ sessionId: 's1', path: 'skills/deploy.md', title }),
  },
  {
    operation: 'skills.promote',
    field: 'procedureKey',
    min: 1,
    max: 120,
    build: (procedureKey) => ({ sessionId: 's1', path: 'skills/deploy.md', procedureKey }),
  },
  {
    operation: 'skills.upsert',
    field: 'content',
    min: 1,
    max: 120000,
    build: (content) => ({ path: 'skills/deploy.md', content }),
  },
];

describe('string limits of the contract, through the operation input schemas', () => {
  describe.each(stringLimits)('$operation $field, $min to $max chars', (limit) => {
    it(`accepts ${limit.max} chars and keeps the value`, () => {
      const value = text(limit.max);
      expect(valueAtPath(accept(limit.operation, limit.build(value)), limit.field)).toBe(value);
    });

    it(`accepts the shortest value, length ${limit.min}`, () => {
      const value = text(limit.min);
      expect(valueAtPath(accept(limit.operation, limit.build(value)), limit.field)).toBe(value);
    });

    it(`rejects ${limit.max + 1} chars with INVALID_REQUEST naming ${limit.field}`, () => {
      expectFieldError(reject(limit.operation, limit.build(text(limit.max + 1))), 'INVALID_REQUEST', limit.field);
    });

    if (limit.min > 0) {
      it(`rejects an empty string with ${limit.emptyCode ?? 'INVALID_REQUEST'}`, () => {
        expectFieldError(reject(limit.operation, limit.build('')), limit.emptyCode ?? 'INVALID_REQUEST', limit.field);
      });
    }
  });
});

interface ArrayLimitCase {
  operation: OperationId;
  field: string;
  maxItems: number;
  build: (items: string[]) => Input;
}

const arrayLimits: ArrayLimitCase[] = [
  { operation: 'memories.add', field: 'tags', maxItems: 50, build: (tags) => ({ content: 'note', tags }) },
  { operation: 'memories.edit', field: 'tags', maxItems: 50, build: (tags) => ({ id: 'm1', tags }) },
  { operation: 'memories.add', field: 'paths', maxItems: 100, build: (paths) => ({ content: 'note', paths }) },
  { operation: 'memories.edit', field: 'paths', maxItems: 100, build: (paths) => ({ id: 'm1', paths }) },
];

describe('array limits of the contract', () => {
  describe.each(arrayLimits)('$operation $field (max $maxItems items)', (limit) => {
    const items = (count: number) => Array.from({ length: count }, (_, index) => `item-${index}`);

    it(`accepts ${limit.maxItems} items`, () => {
      const parsed = accept(limit.operation, limit.build(items(limit.maxItems)));
      expect(valueAtPath(parsed, limit.field)).toHaveLength(limit.maxItems);
    });

    it('accepts an empty list', () => {
      expect(valueAtPath(accept(limit.operation, limit.build([])), limit.field)).toEqual([]);
    });

    it(`rejects ${limit.maxItems + 1} items with INVALID_REQUEST naming ${limit.field}`, () => {
      expectFieldError(reject(limit.operation, limit.build(items(limit.maxItems + 1))), 'INVALID_REQUEST', limit.field);
    });
  });
});

interface IntegerLimitCase {
  operation: OperationId;
  field: string;
  min: number;
  max: number;
  build: (value: number) => Input;
  /** GET routes read the value from the query string, so it arrives as text. */
  fromQueryString?: boolean;
}

const integerLimits: IntegerLimitCase[] = [
  { operation: 'context.get', field: 'limit', min: 1, max: 50, build: (limit) => ({ limit }) },
  { operation: 'memories.search', field: 'limit', min: 1, max: 50, build: (limit) => ({ query: 'deploy', limit }) },
  { operation: 'graph.trace', field: 'limit', min: 1, max: 50, build: (limit) => ({ limit }) },
  { operation: 'memories.list', field: 'limit', min: 1, max: 100, build: (limit) => ({ limit }) },
  { operation: 'context.get', field: 'graphDepth', min: 0, max: 2, build: (graphDepth) => ({ graphDepth }) },
  { operation: 'graph.trace', field: 'graphDepth', min: 0, max: 2, build: (graphDepth) => ({ graphDepth }) },
  { operation: 'context.get', field: 'graphLimit', min: 1, max: 50, build: (graphLimit) => ({ graphLimit }) },
  { operation: 'graph.trace', field: 'graphLimit', min: 1, max: 50, build: (graphLimit) => ({ graphLimit }) },
  {
    operation: 'skills.promote',
    field: 'maxSteps',
    min: 3,
    max: 20,
    build: (maxSteps) => ({ sessionId: 's1', path: 'skills/deploy.md', maxSteps }),
  },
  {
    operation: 'management.embeddings.observability',
    field: 'windowHours',
    min: 1,
    max: 168,
    build: (windowHours) => ({ windowHours: String(windowHours) }),
    fromQueryString: true,
  },
  {
    operation: 'management.memory.observability',
    field: 'windowHours',
    min: 1,
    max: 336,
    build: (windowHours) => ({ windowHours: String(windowHours) }),
    fromQueryString: true,
  },
];

describe('integer limits of the contract', () => {
  describe.each(integerLimits)('$operation $field, $min to $max', (limit) => {
    it(`accepts ${limit.min} and ${limit.max} as numbers`, () => {
      expect(valueAtPath(accept(limit.operation, limit.build(limit.min)), limit.field)).toBe(limit.min);
      expect(valueAtPath(accept(limit.operation, limit.build(limit.max)), limit.field)).toBe(limit.max);
    });

    it(`rejects ${limit.max + 1} with INVALID_REQUEST naming ${limit.field}`, () => {
      expectFieldError(reject(limit.operation, limit.build(limit.max + 1)), 'INVALID_REQUEST', limit.field);
    });

    it(`rejects ${limit.min - 1} with INVALID_REQUEST naming ${limit.field}`, () => {
      expectFieldError(reject(limit.operation, limit.build(limit.min - 1)), 'INVALID_REQUEST', limit.field);
    });

    it('rejects a fraction', () => {
      expectFieldError(reject(limit.operation, limit.build(limit.min + 0.5)), 'INVALID_REQUEST', limit.field);
    });

    if (limit.fromQueryString) {
      it('rejects text that is not a number', () => {
        expectFieldError(reject(limit.operation, { [limit.field]: 'many' }), 'INVALID_REQUEST', limit.field);
      });
    } else {
      it('rejects a number sent as a string in a JSON body', () => {
        const input = limit.build(limit.min);
        const asText = { ...input, [limit.field]: String(limit.min) };
        expectFieldError(reject(limit.operation, asText), 'INVALID_REQUEST', limit.field);
      });
    }
  });

  it('reads windowHours query strings at the boundaries (168/169, 336/337)', () => {
    expect(accept('management.embeddings.observability', { windowHours: '168' })).toMatchObject({ windowHours: 168 });
    expect(reject('management.embeddings.observability', { windowHours: '169' }).details).toMatchObject({
      field: 'windowHours',
    });
    expect(accept('management.memory.observability', { windowHours: '336' })).toMatchObject({ windowHours: 336 });
    expect(reject('management.memory.observability', { windowHours: '337' }).details).toMatchObject({
      field: 'windowHours',
    });
  });
});

describe('specific codes for required and invalid fields', () => {
  it.each([{}, { query: '' }, { query: '   ' }, { query: null }])(
    'search with query %j gives QUERY_REQUIRED',
    (input) => {
      expectFieldError(reject('memories.search', input), 'QUERY_REQUIRED', 'query');
    },
  );

  it('search with a query of the wrong type is INVALID_REQUEST, not QUERY_REQUIRED', () => {
    expectFieldError(reject('memories.search', { query: 42 }), 'INVALID_REQUEST', 'query');
  });

  it.each([
    { operation: 'sessions.checkpoint', input: { content: 'progress' } },
    { operation: 'sessions.end', input: { status: 'closed' } },
    { operation: 'skills.promote', input: { path: 'skills/deploy.md' } },
  ] as const)('$operation without sessionId gives SESSION_ID_REQUIRED', ({ operation, input }) => {
    expectFieldError(reject(operation, input), 'SESSION_ID_REQUIRED', 'sessionId');
  });

  it('checkpoint without content gives SESSION_CONTENT_REQUIRED', () => {
    expectFieldError(reject('sessions.checkpoint', { sessionId: 's1' }), 'SESSION_CONTENT_REQUIRED', 'content');
  });

  it.each(['active', 'open', '', 'CLOSED'])('end with status %j gives INVALID_SESSION_STATUS', (status) => {
    expectFieldError(reject('sessions.end', { sessionId: 's1', status }), 'INVALID_SESSION_STATUS', 'status');
  });

  it('end accepts closed and compacted, and defaults to closed', () => {
    expect(accept('sessions.end', { sessionId: 's1', status: 'compacted' })).toMatchObject({ status: 'compacted' });
    expect(accept('sessions.end', { sessionId: 's1', status: 'closed' })).toMatchObject({ status: 'closed' });
    expect(accept('sessions.end', { sessionId: 's1' })).toMatchObject({ status: 'closed' });
  });

  it('promote without path gives SKILL_FILE_PATH_REQUIRED', () => {
    expectFieldError(reject('skills.promote', { sessionId: 's1' }), 'SKILL_FILE_PATH_REQUIRED', 'path');
  });

  it('skills/files/upsert without path is plain INVALID_REQUEST (the specific code is promote only)', () => {
    expectFieldError(reject('skills.upsert', { content: '# Steps' }), 'INVALID_REQUEST', 'path');
  });
});

describe('scope fields (docs/architecture.md#tenancy-and-visibility patterns and lengths)', () => {
  const add = (scope: Input) => ({ content: 'note', scope });

  it('accepts a 128-char tenantId and a 256-char userId', () => {
    const tenantId = text(128);
    const userId = text(256);
    expect(accept('memories.add', add({ tenantId, userId }))).toMatchObject({ scope: { tenantId, userId } });
  });

  it.each([text(129), '', '-leading-dash', 'has space', 'slash/inside'])(
    'rejects tenantId %j with TENANT_ID_INVALID naming scope.tenantId',
    (tenantId) => {
      expectFieldError(reject('memories.add', add({ tenantId })), 'TENANT_ID_INVALID', 'scope.tenantId');
    },
  );

  it.each([text(257), '', '.leading-dot', 'has space'])(
    'rejects userId %j with USER_ID_INVALID naming scope.userId',
    (userId) => {
      expectFieldError(reject('memories.add', add({ userId })), 'USER_ID_INVALID', 'scope.userId');
    },
  );

  it('names the query field tenantId on GET routes', () => {
    expectFieldError(
      reject('management.memory.observability', { tenantId: 'bad tenant' }),
      'TENANT_ID_INVALID',
      'tenantId',
    );
  });

  it('gives every body route the scope codes', () => {
    expectFieldError(reject('context.get', { scope: { tenantId: 'a b' } }), 'TENANT_ID_INVALID', 'scope.tenantId');
    expectFieldError(reject('sessions.start', { scope: { userId: 'a b' } }), 'USER_ID_INVALID', 'scope.userId');
  });
});

describe('defaults the contract states', () => {
  it('context/get: limit 5, includeRules, includeSkillFiles, mode all, graphDepth 1, graphLimit 8', () => {
    expect(accept('context.get', {})).toEqual({
      limit: 5,
      includeRules: true,
      includeSkillFiles: true,
      mode: 'all',
      graphDepth: 1,
      graphLimit: 8,
    });
  });

  it('graph/trace: limit 10, the rest as context/get', () => {
    expect(accept('graph.trace', {})).toMatchObject({ limit: 10, graphDepth: 1, graphLimit: 8 });
  });

  it('context/get leaves strategy unset so the rollout policy decides', () => {
    expect(accept('context.get', {})).not.toHaveProperty('strategy');
  });
});

describe('LIMITS and DEFAULTS hold the contract numbers', () => {
  it('LIMITS matches the Limits table', () => {
    expect(LIMITS).toMatchObject({
      query: { max: 500 },
      memoryContent: { min: 1, max: 8000 },
      retrievalLimit: { min: 1, max: 50 },
      listLimit: { min: 1, max: 100 },
      graphDepth: { min: 0, max: 2 },
      graphLimit: { min: 1, max: 50 },
      tags: { maxItems: 50, itemMin: 1, itemMax: 120 },
      paths: { maxItems: 100, itemMin: 1, itemMax: 300 },
      category: { min: 1, max: 120 },
      sessionId: { min: 1, max: 120 },
      checkpointContent: { min: 1, max: 16000 },
      sessionTitle: { min: 1, max: 240 },
      sessionClient: { min: 1, max: 120 },
      consolidateModel: { min: 1, max: 160 },
      skillPath: { min: 1, max: 400 },
      promoteTitle: { min: 1, max: 200 },
      procedureKey: { min: 1, max: 120 },
      maxSteps: { min: 3, max: 20 },
      skillContent: { min: 1, max: 120000 },
      embeddingsWindowHours: { min: 1, max: 168 },
      memoryWindowHours: { min: 1, max: 336 },
      requestBodyBytes: 1024 * 1024,
    });
  });

  it('DEFAULTS matches the contract and docs/architecture.md', () => {
    expect(DEFAULTS).toMatchObject({
      contextLimit: 5,
      traceLimit: 10,
      graphDepth: 1,
      graphLimit: 8,
      includeRules: true,
      includeSkillFiles: true,
      mode: 'all',
      skillListLimit: 100,
      embeddingModel: 'local/use-lite-512',
    });
  });
});

/** An object nested `levels` deep (the object itself is level 1), built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 1; level < levels; level += 1) value = { child: value };
  return value;
}

/** A metadata object whose JSON is exactly `bytes` UTF-8 bytes, its text made of 2-byte characters where it can. */
function metadataOfBytes(bytes: number): Record<string, unknown> {
  const overhead = JSON.stringify({ note: '' }).length;
  const payload = bytes - overhead;
  return { note: 'é'.repeat(Math.floor(payload / 2)) + 'x'.repeat(payload % 2) };
}

const metadataRoutes: Array<{ operation: OperationId; build: (metadata: unknown) => Input }> = [
  { operation: 'memories.add', build: (metadata) => ({ content: 'note', metadata }) },
  { operation: 'memories.edit', build: (metadata) => ({ id: 'm1', metadata }) },
  { operation: 'sessions.start', build: (metadata) => ({ metadata }) },
  { operation: 'management.tenants.post', build: (metadata) => ({ tenantId: 'acme', mode: 'provision', metadata }) },
];

describe('metadata caps: 16 levels, 16,384 bytes of JSON', () => {
  it('LIMITS names both numbers', () => {
    expect(LIMITS.metadata).toEqual({ maxBytes: 16384, maxDepth: 16 });
  });

  it('every request field named metadata is the one shared MetadataSchema', () => {
    const unwrap = (schema: z.ZodType): z.ZodType =>
      schema instanceof z.ZodOptional ? unwrap(schema.unwrap() as z.ZodType) : schema;
    const users = operationList
      .filter((operation) => operation.input instanceof z.ZodObject && 'metadata' in operation.input.shape)
      .map((operation) => {
        const field = (operation.input as z.ZodObject).shape.metadata as z.ZodType;
        expect(unwrap(field), operation.id).toBe(MetadataSchema);
        return operation.id;
      });
    expect(users.sort()).toEqual(metadataRoutes.map((route) => route.operation).sort());
  });

  describe.each(metadataRoutes)('$operation', ({ operation, build }) => {
    it('accepts 16 levels and keeps the value', () => {
      const metadata = nested(16);
      expect(valueAtPath(accept(operation, build(metadata)), 'metadata')).toEqual(metadata);
    });

    it.each([17, 5000, 100_000])('rejects %i levels with INVALID_REQUEST naming metadata', (levels) => {
      expectFieldError(reject(operation, build(nested(levels))), 'INVALID_REQUEST', 'metadata');
    });

    it('counts arrays as levels too', () => {
      let value: unknown = 'leaf';
      for (let level = 1; level < 17; level += 1) value = [value];
      expectFieldError(reject(operation, build({ list: value })), 'INVALID_REQUEST', 'metadata');
    });

    it('accepts 16,384 bytes of JSON and rejects 16,385, counting UTF-8 bytes, not characters', () => {
      const largest = metadataOfBytes(16384);
      expect(new TextEncoder().encode(JSON.stringify(largest)).byteLength).toBe(16384);
      expect(JSON.stringify(largest).length).toBeLessThan(9000);
      expect(valueAtPath(accept(operation, build(largest)), 'metadata')).toEqual(largest);
      expectFieldError(reject(operation, build(metadataOfBytes(16385))), 'INVALID_REQUEST', 'metadata');
    });

    it('rejects a wide object of many small values past the byte cap', () => {
      const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 0]));
      expectFieldError(reject(operation, build(wide)), 'INVALID_REQUEST', 'metadata');
    });
  });

  it('checks nesting without recursion: a million levels and a cycle are refused, not a stack overflow', () => {
    expect(nestingProblem(nested(1_000_000), 16, Number.POSITIVE_INFINITY)).toBe('depth');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(nestingProblem(cycle, 16, Number.POSITIVE_INFINITY)).toBe('depth');
    expect(MetadataSchema.safeParse(cycle).success).toBe(false);
    expect(nestingProblem(nested(16), 16, Number.POSITIVE_INFINITY)).toBeNull();
  });
});

/** One eval replay case with the given lists; the rest minimal. */
function evalCase(fields: { expected?: string[]; observed?: string[]; requiredFacts?: string[]; summary?: string }) {
  return {
    id: 'case-1',
    extraction: { expected: fields.expected ?? [], observed: fields.observed ?? [] },
    compaction: { requiredFacts: fields.requiredFacts ?? [], summary: fields.summary ?? '' },
  };
}

describe('eval replay caps', () => {
  const replay = (scenarios: unknown[]) => ({ scenarios });
  const facts = (count: number) => Array.from({ length: count }, (_, index) => `fact ${index}`);

  it('LIMITS names them', () => {
    expect(LIMITS).toMatchObject({
      evalScenarios: { max: 100 },
      evalScenarioId: { min: 1, max: 200 },
      evalFacts: { maxItems: 500, itemMax: 2000 },
      evalSummary: { max: 50000 },
    });
  });

  it('accepts every cap at its maximum', () => {
    const full = evalCase({
      expected: facts(500),
      observed: [text(2000), ...facts(499)],
      requiredFacts: facts(500),
      summary: text(50000),
    });
    const parsed = accept('management.memory.evalReplay', replay(Array.from({ length: 100 }, () => full)));
    expect(parsed).toMatchObject({ scenarios: { length: 100 } });
  });

  it.each([
    { field: 'scenarios', input: replay(Array.from({ length: 101 }, () => evalCase({}))) },
    { field: 'scenarios.0.id', input: replay([{ ...evalCase({}), id: text(201) }]) },
    { field: 'scenarios.0.extraction.expected', input: replay([evalCase({ expected: facts(501) })]) },
    { field: 'scenarios.0.extraction.observed', input: replay([evalCase({ observed: facts(501) })]) },
    { field: 'scenarios.0.compaction.requiredFacts', input: replay([evalCase({ requiredFacts: facts(501) })]) },
    { field: 'scenarios.0.extraction.expected.3', input: replay([evalCase({ expected: [...facts(3), text(2001)] })]) },
    { field: 'scenarios.0.compaction.requiredFacts.0', input: replay([evalCase({ requiredFacts: [text(2001)] })]) },
    { field: 'scenarios.0.compaction.summary', input: replay([evalCase({ summary: text(50001) })]) },
  ])('rejects one past the cap with INVALID_REQUEST naming $field', ({ field, input }) => {
    expectFieldError(reject('management.memory.evalReplay', input), 'INVALID_REQUEST', field);
  });
});

describe('context/get response caps', () => {
  it('rules: 100; skill files: 100 files within 384 KiB of content', () => {
    expect(LIMITS.contextRules).toEqual({ max: 100 });
    expect(DEFAULTS.contextSkillFiles).toBe(100);
    expect(LIMITS.contextSkillFileBytes).toBe(384 * 1024);
  });

  it('the byte budget holds the largest skill file (3 UTF-8 bytes a character), so the best file always fits', () => {
    expect(LIMITS.contextSkillFileBytes).toBeGreaterThanOrEqual(3 * LIMITS.skillContent.max);
  });
});
