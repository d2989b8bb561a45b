import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { FEATURE_FLAGS } from '../src/enums.js';
import {
  AUTH_CREDENTIALS,
  ERROR_CODES,
  featureFlagErrorCode,
  OPERATION_TAGS,
  type OperationId,
  operationErrorCodes,
  operationList,
  operations,
  type RouteFeatureFlag,
} from '../src/index.js';

const SCOPE_FIELDS = ['tenantId', 'userId', 'projectId'];

function inputKeys(schema: z.ZodType): string[] {
  return 'shape' in schema && typeof schema.shape === 'object' && schema.shape !== null
    ? Object.keys(schema.shape)
    : [];
}

describe('credentials', () => {
  it('names the credentials each kind of route takes', () => {
    expect(AUTH_CREDENTIALS).toEqual({
      none: [],
      apiKey: ['apiKey'],
      apiKeyOrSession: ['apiKey', 'adminToken'],
      management: ['adminToken'],
    });
  });

  it('routes that take the admin token only say how they refuse an API key', () => {
    for (const operation of operationList) {
      const codes = operationErrorCodes(operation);
      if (operation.auth === 'management') expect(codes, operation.id).toContain('OPERATOR_CREDENTIAL_REQUIRED');
      else expect(codes, operation.id).not.toContain('OPERATOR_CREDENTIAL_REQUIRED');
    }
  });
});

describe('scope source', () => {
  it("agrees with each input schema: a scope object, top-level fields, or the managed tenant's id", () => {
    for (const operation of operationList) {
      const keys = inputKeys(operation.input);
      const flat = keys.filter((key) => SCOPE_FIELDS.includes(key));
      if (operation.scopeSource === 'object') {
        expect(keys, operation.id).toContain('scope');
        expect(flat, operation.id).toEqual([]);
      } else if (operation.scopeSource === 'fields') {
        expect(keys, operation.id).not.toContain('scope');
        expect(flat.length, operation.id).toBeGreaterThan(0);
      } else if (operation.scopeSource === 'subject') {
        expect(keys, operation.id).toContain('tenantId');
      } else {
        expect([...flat, ...keys.filter((key) => key === 'scope')], operation.id).toEqual([]);
      }
    }
  });

  it("the tenant-overrides routes take the tenantId they manage as a subject, not the caller's scope", () => {
    const subjects = operationList.filter((operation) => operation.scopeSource === 'subject').map(({ id }) => id);
    expect(subjects).toEqual([
      'management.tenants.get',
      'management.tenants.post',
      'management.tenants.delete',
      'management.export',
      'management.import',
      'management.users.erase',
    ]);
  });
});

describe('tenant creation', () => {
  // Reads, and writes that only reach records that must already exist: an unknown tenant is answered as an empty one.
  const neverCreate: readonly OperationId[] = [
    'context.get',
    'memories.search',
    'memories.list',
    'skills.list',
    'sessions.snapshot',
    'embeddings.models',
    'graph.status.get',
    'graph.status.post',
    'graph.trace',
    'graph.rollout.get',
    'management.tenants.get',
    'management.embeddings.usage',
    'management.embeddings.backfill.get',
    'management.embeddings.observability',
    'management.memory.observability',
    'management.memory.evalReplay',
    'memories.edit',
    'memories.forget',
    'memories.bulkForget',
    'memories.vacuum',
    'memories.consolidate',
    'skills.delete',
    'skills.promote',
    'sessions.checkpoint',
    'sessions.end',
    'management.users.erase',
  ];

  it('only writes that create records provision an unknown tenant', () => {
    const tenantRoutes = operationList.filter((operation) => operation.errorCodes.includes('DATABASE_NOT_CONFIGURED'));
    const creating = tenantRoutes.filter((operation) => operation.createsTenant).map(({ id }) => id);
    expect(creating.sort()).toEqual(
      [
        'memories.add',
        'skills.upsert',
        'sessions.start',
        'graph.rollout.post',
        'graph.rollout.patch',
        'management.embeddings.backfill.post',
        'management.import',
      ].sort(),
    );
    for (const id of neverCreate) expect(operations[id].createsTenant, id).toBe(false);
  });

  it('is its own fact beside readOnly: no read creates a tenant, and neither does edit, a write', () => {
    for (const operation of operationList)
      if (operation.readOnly) expect(operation.createsTenant, operation.id).toBe(false);
    expect(operations['memories.edit']).toMatchObject({ readOnly: false, createsTenant: false });
  });
});

describe('MCP hints', () => {
  it('destructive operations remove data, and none of them is read-only', () => {
    const destructive = operationList.filter((operation) => operation.destructive).map(({ id }) => id);
    expect(destructive.sort()).toEqual(
      [
        'memories.forget',
        'memories.bulkForget',
        'memories.vacuum',
        'skills.delete',
        'management.keys.delete',
        'management.tenants.delete',
        'management.users.erase',
      ].sort(),
    );
    for (const operation of operationList) if (operation.destructive) expect(operation.readOnly).toBe(false);
  });
});

describe('feature flags', () => {
  it("derives the 403 code of every route flag from the contract's flag table", () => {
    const routeFlags = FEATURE_FLAGS.filter((flag) => flag !== 'MEMORY_FILE_MODE_ENABLED') as RouteFeatureFlag[];
    expect(routeFlags.map(featureFlagErrorCode)).toEqual([
      'MEMORY_SESSION_DISABLED',
      'MEMORY_COMPACTION_DISABLED',
      'MEMORY_CONSOLIDATION_DISABLED',
      'MEMORY_PROCEDURAL_DISABLED',
    ]);
    for (const flag of routeFlags) expect(ERROR_CODES[featureFlagErrorCode(flag)].status).toBe(403);
    // @ts-expect-error the file-mode flag has no code and guards no route
    featureFlagErrorCode('MEMORY_FILE_MODE_ENABLED');
  });

  it("a flagged route lists its flag's code without restating it", () => {
    for (const operation of operationList) {
      if (operation.featureFlag === undefined) continue;
      expect(operation.errorCodes, operation.id).toContain(featureFlagErrorCode(operation.featureFlag));
    }
  });
});

describe('documentation', () => {
  it('every operation has a description and a declared tag, and every tag is used', () => {
    for (const operation of operationList) {
      expect(operation.description.length, operation.id).toBeGreaterThan(20);
      expect(Object.keys(OPERATION_TAGS), operation.id).toContain(operation.tag);
    }
    expect(new Set(operationList.map((operation) => operation.tag))).toEqual(new Set(Object.keys(OPERATION_TAGS)));
  });

  it('path parameters are read from the path', () => {
    for (const operation of operationList) {
      expect(operation.pathParams, operation.id).toEqual(
        [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
      );
    }
  });
});
