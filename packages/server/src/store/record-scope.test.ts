import { MemorySchema, SkillFileSchema } from '@memory-service/contract';
import { describe, expect, it } from 'vitest';
import { type MemoryRow, toMemory } from './memory-rows.js';
import { type SkillFileRow, toSkillFile } from './skills.js';

// Issue 18, item 9: records carry upstream memories.sh's `scope` label, derived from their project.

const stamp = '2026-03-04T10:00:00.000Z';

function memoryRow(projectId: string | null): MemoryRow {
  return {
    seq: 1,
    id: 'a1b2c3d4e5f6',
    content: 'Apollo retries payments three times',
    type: 'decision',
    layer: 'long_term',
    tags: '[]',
    paths: '[]',
    category: null,
    metadata: '{}',
    user_id: null,
    project_id: projectId,
    embedding_model: null,
    superseded_by: null,
    content_hash: 'hash',
    created_at: stamp,
    updated_at: stamp,
    expires_at: null,
    deleted_at: null,
    occurred_at: stamp,
  };
}

function skillRow(projectId: string | null): SkillFileRow {
  return {
    id: 'skill-1',
    path: 'payments/retries.md',
    title: null,
    content: '# Payment retries',
    user_id: 'ada',
    project_id: projectId,
    scope_key: 'key',
    use_count: 0,
    last_used_at: null,
    metadata: '{}',
    created_at: stamp,
    updated_at: stamp,
    deleted_at: null,
  };
}

describe('record scope of stored rows', () => {
  it.each([
    ['apollo', 'project'],
    [null, 'global'],
  ] as const)('a memory with project %s is %s, and still a valid contract record', (projectId, scope) => {
    const memory = toMemory(memoryRow(projectId));
    expect(memory).toMatchObject({ projectId, scope });
    expect(MemorySchema.parse(memory)).toEqual(memory);
  });

  it.each([
    ['apollo', 'project'],
    [null, 'global'],
  ] as const)('a skill file with project %s is %s, whatever its user', (projectId, scope) => {
    const skillFile = toSkillFile(skillRow(projectId));
    expect(skillFile).toMatchObject({ projectId, userId: 'ada', scope });
    expect(SkillFileSchema.parse(skillFile)).toEqual(skillFile);
  });
});
