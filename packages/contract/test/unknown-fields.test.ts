import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MemorySchema, type OperationId, operations, zodErrorToApiError } from '../src/index.js';

// A field the server would drop (a misplaced `userId`) is refused, never silently ignored.

function refusal(id: OperationId, input: Record<string, unknown>) {
  const operation = operations[id];
  const result = operation.input.safeParse(input);
  if (result.success) return null;
  const error = zodErrorToApiError(result.error, input, operation.fieldCodes);
  return { code: error.code, status: error.status, field: error.details?.field };
}

/** Operations that take input (health takes none: a probe's cache-busting query stays harmless there). */
const withInput = (Object.keys(operations) as OperationId[]).filter((id) => id !== 'health');
const withScope = withInput.filter((id) => {
  const input = operations[id].input;
  return input instanceof z.ZodObject && 'scope' in input.shape;
});

describe('unknown request fields', () => {
  it('refuses the misplaced userId of memories/add as INVALID_REQUEST naming it', () => {
    expect(refusal('memories.add', { content: 'Prefers tea', userId: 'bob' })).toEqual({
      code: 'INVALID_REQUEST',
      status: 400,
      field: 'userId',
    });
    expect(refusal('memories.add', { content: 'Prefers tea', scope: { userId: 'bob' } })).toBeNull();
  });

  it.each(withInput)('%s refuses an unknown top-level field', (id) => {
    expect(refusal(id, { unexpectedField: true })).toEqual({
      code: 'INVALID_REQUEST',
      status: 400,
      field: 'unexpectedField',
    });
  });

  it('covers every body route', () => {
    const bodyRoutes = withInput.filter((id) => operations[id].inputLocation === 'body');
    expect(bodyRoutes.length).toBeGreaterThanOrEqual(20);
    expect(withScope.length).toBeGreaterThanOrEqual(18);
  });

  it.each(withScope)('%s refuses an unknown field inside scope, by its dotted path', (id) => {
    expect(refusal(id, { scope: { userid: 'bob' } })).toMatchObject({ code: 'INVALID_REQUEST', field: 'scope.userid' });
  });

  it('names unknown fields of nested request objects by their dotted path', () => {
    expect(refusal('memories.bulkForget', { filters: { type: ['note'] } })?.field).toBe('filters.type');
    expect(refusal('graph.rollout.post', { mode: 'off', scope: { userId: 'bob' } })?.field).toBe('scope.userId');
    const scenario = { id: 's1', extraction: { expected: [], observed: [], recall: 1 } };
    expect(refusal('management.memory.evalReplay', { scenarios: [scenario] })?.field).toBe(
      'scenarios.0.extraction.recall',
    );
    expect(refusal('management.memory.evalReplay', { scenarios: [], passCriteria: { f1: 1 } })?.field).toBe(
      'passCriteria.f1',
    );
  });

  it('reports an unknown field before other failures, and every unknown field in the issues', () => {
    const operation = operations['memories.add'];
    const input = { content: '', userId: 'bob', tenant: 'acme' };
    const result = operation.input.safeParse(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    const error = zodErrorToApiError(result.error, input, operation.fieldCodes);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'userId' } });
    expect(error.message).toContain('scope');
    expect(error.details?.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'userId', code: 'unrecognized_keys' }),
        expect.objectContaining({ path: 'tenant', code: 'unrecognized_keys' }),
        expect.objectContaining({ path: 'content' }),
      ]),
    );
  });

  it('keeps response schemas lenient: extra fields in data are fine', () => {
    const memory = MemorySchema.safeParse({ ...validMemory(), addedLater: 1 });
    expect(memory.success).toBe(true);
  });
});

function validMemory() {
  return {
    id: 'm1',
    content: 'c',
    type: 'note',
    layer: 'long_term',
    tags: [],
    paths: [],
    category: null,
    metadata: {},
    userId: null,
    projectId: null,
    scope: 'global',
    embeddingModel: null,
    supersededBy: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    occurredAt: '2026-01-01T00:00:00.000Z',
    resolvedDates: [],
  };
}
