import { describe, expect, it } from 'vitest';
import {
  ContextTraceSchema,
  LEGACY_STRATEGY_NAMES,
  MemorySchema,
  recordScopeOf,
  SkillFileSchema,
  STRATEGIES,
  STRATEGY_ALIASES,
} from '../src/index.js';

// Issue 18, item 9: the fields upstream memories.sh clients require, added beside the contract's own.

describe('record scope', () => {
  it('is project when the record has a project, else global', () => {
    expect(recordScopeOf('apollo')).toBe('project');
    expect(recordScopeOf(null)).toBe('global');
    expect(recordScopeOf('')).toBe('global');
  });

  it('is a required label on memories and skill files, never the scope object of requests', () => {
    for (const schema of [MemorySchema.shape.scope, SkillFileSchema.shape.scope]) {
      expect(schema.options).toEqual(['global', 'project']);
      expect(schema.safeParse(undefined).success).toBe(false);
      expect(schema.safeParse({ tenantId: null, userId: null, projectId: 'apollo' }).success).toBe(false);
      expect(schema.safeParse('unknown').success).toBe(false);
    }
  });
});

describe('trace.strategy', () => {
  it('names each strategy by its legacy alias: the inverse of STRATEGY_ALIASES', () => {
    expect(Object.keys(LEGACY_STRATEGY_NAMES).sort()).toEqual([...STRATEGIES].sort());
    for (const [legacy, current] of Object.entries(STRATEGY_ALIASES)) {
      expect(LEGACY_STRATEGY_NAMES[current]).toBe(legacy);
    }
  });

  it('takes only the legacy names, which every upstream client version accepts', () => {
    const { strategy } = ContextTraceSchema.shape;
    expect(strategy.options).toEqual(['baseline', 'hybrid_graph']);
    expect(strategy.safeParse('lexical').success).toBe(false);
  });
});
