import { describe, expect, it } from 'vitest';
import { API_PREFIX, normalizeMemoryContent, openApiDocument, operations } from '../src/index.js';
import { AddMemoryDataSchema } from '../src/resources/memory.js';

describe('normalizeMemoryContent', () => {
  it('folds Unicode compatibility forms, case, whitespace and a final full stop or exclamation mark', () => {
    const forms = [
      'Deploys on Friday.',
      'deploys on friday',
      '  DEPLOYS   on\n\tFriday!  ',
      'Deploys on Friday...',
      'Deploys on Friday…',
      'Ｄｅｐｌｏｙｓ\u00a0on Friday．',
      'Deploys on Friday 。',
    ];
    for (const form of forms) expect(normalizeMemoryContent(form), form).toBe('deploys on friday');
  });

  it('never makes two different statements equal', () => {
    const base = normalizeMemoryContent('Deploys on Friday');
    for (const other of [
      'Deploys on Friday?',
      'Deploys on Friday at 5pm',
      'Deploys on Fridays',
      'Déploie le vendredi',
      'Deploys on Friday, not Monday',
      '- Deploys on Friday',
    ]) {
      expect(normalizeMemoryContent(other), other).not.toBe(base);
    }
    // Inner punctuation counts: versions, decimals and abbreviations stay as they are.
    expect(normalizeMemoryContent('Uses Node 22.1.')).toBe('uses node 22.1');
    expect(normalizeMemoryContent('Uses Node 2.21')).not.toBe(normalizeMemoryContent('Uses Node 22.1'));
  });

  it('keeps a text that is only punctuation as it is', () => {
    expect(normalizeMemoryContent(' ... ')).toBe('...');
    expect(normalizeMemoryContent('!')).not.toBe(normalizeMemoryContent('.'));
  });
});

describe('memories.add answer', () => {
  it('has the additive deduplicated flag, optional, in its schema and its OpenAPI data', () => {
    const base = {
      id: 'abc',
      message: 'Memory stored',
      embeddingModel: 'local/hash-384',
      embeddingModelSource: 'workspace_default',
      memory: {
        id: 'abc',
        content: 'x',
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
        createdAt: '2030-01-01T00:00:00.000Z',
        updatedAt: '2030-01-01T00:00:00.000Z',
        occurredAt: '2030-01-01T00:00:00.000Z',
        resolvedDates: [],
      },
    };
    expect(AddMemoryDataSchema.parse(base)).not.toHaveProperty('deduplicated');
    expect(AddMemoryDataSchema.parse({ ...base, deduplicated: true }).deduplicated).toBe(true);
    expect(operations['memories.add'].successStatus).toBe(201);
    const paths = openApiDocument().paths as Record<string, any>;
    const data =
      paths[`${API_PREFIX}/memories/add`].post.responses['201'].content['application/json'].schema.properties.data;
    expect(data.properties.deduplicated).toMatchObject({ type: 'boolean' });
    expect(data.required).not.toContain('deduplicated');
  });
});
