import type { RetrievedMemory, SkillFile } from '@memory-service/contract';
import { describe, expect, it } from 'vitest';
import { formatMemoryContext } from './format-memory-context.js';

function memory(id: string, content: string, type: RetrievedMemory['type'] = 'fact'): RetrievedMemory {
  return {
    id,
    content,
    type,
    layer: type === 'rule' ? 'rule' : 'long_term',
    tags: [],
    paths: [],
    category: null,
    metadata: {},
    userId: null,
    projectId: null,
    scope: 'global',
    embeddingModel: null,
    supersededBy: null,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-03-04T10:00:00.000Z',
    occurredAt: '2025-12-24T18:30:00.000Z',
    resolvedDates: [],
    score: 1,
    source: type === 'rule' ? 'rule' : 'lexical',
  };
}

function skillFile(path: string, title: string | null, content: string): SkillFile {
  const stamp = '2026-03-04T10:00:00.000Z';
  const base = {
    id: path,
    userId: null,
    projectId: null,
    scope: 'global' as const,
    useCount: 0,
    usageCount: 0,
    procedureKey: null,
    lastUsedAt: null,
    metadata: {},
  };
  return { ...base, path, title, content, createdAt: stamp, updatedAt: stamp };
}

const context = {
  rules: [memory('r1', 'Use metric units.', 'rule')],
  memories: [
    memory('m1', 'The team deploys on Tuesdays.', 'decision'),
    memory('m2', 'The team deploys on Fridays.', 'decision'),
    memory('m3', 'Ada likes green tea.'),
  ],
  conflicts: [
    {
      memoryAId: 'm1',
      memoryBId: 'm2',
      edgeType: 'contradicts',
      confidence: 0.9,
      explanation: 'Both give the deploy day.',
      suggestion: 'Ask which day is current.',
    },
  ],
  skillFiles: [skillFile('ops/deploy.md', 'Deploy', '# Deploy\nRun the pipeline.')],
};

describe('formatMemoryContext', () => {
  it('lists rules, memories with type and date, flagged conflicts and skill files', () => {
    const text = formatMemoryContext(context);
    expect(text).toContain('Rules (always follow these):\n- [rule · 2025-12-24 · id r1] Use metric units.');
    expect(text).toContain('- [decision · 2025-12-24 · id m1] The team deploys on Tuesdays. [CONFLICT');
    expect(text).toContain('- [decision · 2025-12-24 · id m2] The team deploys on Fridays. [CONFLICT');
    expect(text).toContain('- [fact · 2025-12-24 · id m3] Ada likes green tea.\n');
    expect(text).toContain('- m1 vs m2: Both give the deploy day. Suggestion: Ask which day is current.');
    expect(text).toContain('Skill files (procedures you can follow):\n- ops/deploy.md: Deploy');
    expect(text).toContain('### ops/deploy.md\n# Deploy\nRun the pipeline.');
  });

  it('dates each memory by when what it says happened (occurredAt), not when it was written', () => {
    const said = { ...memory('m4', 'Caroline went to a support group yesterday.'), occurredAt: '2023-05-08T13:56:00Z' };
    const text = formatMemoryContext({ rules: [], memories: [said], skillFiles: [] });
    expect(text).toContain('- [fact · 2023-05-08 · id m4] Caroline went to a support group yesterday.');
    expect(text).not.toContain('2026-03-04');
  });

  it('says what relative dates in a memory meant when it was said', () => {
    const said = {
      ...memory('m6', 'Yesterday I booked the trip for next week.'),
      occurredAt: '2023-05-08T13:56:00Z',
      resolvedDates: [
        { text: 'Yesterday', date: '2023-05-07', precision: 'day' as const },
        { text: 'next week', date: '2023-05-15', precision: 'week' as const },
      ],
    };
    const text = formatMemoryContext({ rules: [], memories: [said], skillFiles: [] });
    expect(text).toContain(
      '- [fact · 2023-05-08 · id m6] Yesterday I booked the trip for next week. (Yesterday = 2023-05-07; next week = week of 2023-05-15)',
    );
  });

  it('falls back to the day of the last write for a record without occurredAt (an older server)', () => {
    const { occurredAt: _, ...older } = memory('m5', 'Ada likes green tea.');
    const text = formatMemoryContext({ rules: [], memories: [older as RetrievedMemory], skillFiles: [] });
    expect(text).toContain('- [fact · 2026-03-04 · id m5] Ada likes green tea.');
  });

  it('puts the session summary right after the rules', () => {
    const text = formatMemoryContext(context, { sessionSummary: 'We planned the release.' });
    expect(text.indexOf('Summary of the earlier conversation:\nWe planned the release.')).toBeGreaterThan(
      text.indexOf('Use metric units.'),
    );
    expect(text.indexOf('We planned the release.')).toBeLessThan(text.indexOf('Relevant memories'));
  });

  it('drops the lowest-ranked items whole, skill file content first', () => {
    const full = formatMemoryContext(context);
    const withoutContent = formatMemoryContext(context, { maxContextTokens: Math.ceil(full.length / 4) - 1 });
    expect(withoutContent).not.toContain('Run the pipeline.');
    expect(withoutContent).toContain('- ops/deploy.md: Deploy');
    expect(Math.ceil(withoutContent.length / 4)).toBeLessThanOrEqual(Math.ceil(full.length / 4) - 1);
  });

  it('drops a conflict (and its flags) before either of its memories', () => {
    const full = formatMemoryContext(context);
    const budgets = Array.from({ length: Math.ceil(full.length / 4) }, (_, index) => index + 1);
    for (const budget of budgets) {
      const text = formatMemoryContext(context, { maxContextTokens: budget });
      expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(budget);
      if (text.includes('m1 vs m2')) expect(text).toContain('id m2]');
      if (!text.includes('m1 vs m2')) expect(text).not.toContain('[CONFLICT');
      if (text.includes('Ada likes green tea')) expect(text).toContain('The team deploys on Fridays.');
      if (text !== '') expect(text).toContain('Use metric units.');
    }
  });

  it('returns an empty string when there is nothing to say or nothing fits', () => {
    expect(formatMemoryContext({ rules: [], memories: [], skillFiles: [] })).toBe('');
    expect(formatMemoryContext(context, { maxContextTokens: 5 })).toBe('');
  });

  it('shows each memory once even when the server returns it twice', () => {
    const text = formatMemoryContext({
      ...context,
      memories: [...context.memories, memory('r1', 'Use metric units.')],
    });
    expect(text.match(/Use metric units\./g)).toHaveLength(1);
  });
});
