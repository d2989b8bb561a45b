import { describe, expect, it } from 'vitest';
import {
  AddMemoryInputSchema,
  API_PREFIX,
  EditMemoryInputSchema,
  inputFromMcpArguments,
  MemorySchema,
  openApiDocument,
} from '../src/index.js';

// Issue 24, part 3 ("Time"): `occurredAt` is an additive, optional request field of add and edit, and every record's.

describe('occurredAt', () => {
  it('accepts an ISO 8601 datetime with Z or an offset on add and edit', () => {
    for (const occurredAt of ['2023-05-08T13:56:00Z', '2023-05-08T15:56:00.000+02:00']) {
      expect(AddMemoryInputSchema.parse({ content: 'x', occurredAt }).occurredAt).toBe(occurredAt);
      expect(EditMemoryInputSchema.safeParse({ id: 'a', occurredAt }).success).toBe(true);
    }
  });

  it('refuses a date alone, a datetime without an offset and other text, naming the field', () => {
    for (const occurredAt of ['2023-05-08', '2023-05-08T13:56:00', 'yesterday', 1683554160000]) {
      const result = AddMemoryInputSchema.safeParse({ content: 'x', occurredAt });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['occurredAt']);
    }
  });

  it('is optional on requests, required on records, and named occurred_at over MCP', () => {
    const paths = openApiDocument().paths as Record<string, any>;
    const body = paths[`${API_PREFIX}/memories/add`].post.requestBody.content['application/json'].schema;
    expect(body.properties.occurredAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(body.required ?? []).not.toContain('occurredAt');
    expect(MemorySchema.shape.occurredAt).toBeDefined();
    expect(inputFromMcpArguments({ id: 'a', occurred_at: '2023-05-08T13:56:00Z' })).toEqual({
      id: 'a',
      occurredAt: '2023-05-08T13:56:00Z',
    });
  });
});
