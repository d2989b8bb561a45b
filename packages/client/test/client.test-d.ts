import type {
  ContextGetData,
  OperationData,
  OperationRequest,
  Scope,
  SessionSnapshot,
  TriggerHint,
} from '@memory-service/contract';
import { describe, expectTypeOf, it } from 'vitest';
import {
  AuthError,
  createMemoryClient,
  MemoryApiError,
  type MemoryClient,
  RateLimitError,
  type SessionHints,
} from '../src/index.js';

declare const client: MemoryClient;

describe('createMemoryClient', () => {
  it('returns a MemoryClient and takes typed options', () => {
    expectTypeOf(createMemoryClient).returns.toEqualTypeOf<MemoryClient>();
    expectTypeOf(createMemoryClient)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('scope')
      .toEqualTypeOf<Scope | undefined>();
    expectTypeOf(client.transport).toEqualTypeOf<'sdk_http' | 'mcp'>();
  });
});

describe('outputs are the contract data types, not any', () => {
  it('types every resource result', () => {
    expectTypeOf(client.health()).resolves.toEqualTypeOf<OperationData<'health'>>();
    expectTypeOf(client.memories.add).returns.resolves.toEqualTypeOf<OperationData<'memories.add'>>();
    expectTypeOf(client.memories.add).returns.resolves.not.toBeAny();
    expectTypeOf(client.memories.search).returns.resolves.toEqualTypeOf<OperationData<'memories.search'>>();
    expectTypeOf(client.memories.bulkForget).returns.resolves.toEqualTypeOf<OperationData<'memories.bulkForget'>>();
    expectTypeOf(client.skills.promote).returns.resolves.toEqualTypeOf<OperationData<'skills.promote'>>();
    expectTypeOf(client.sessions.snapshot).returns.resolves.toEqualTypeOf<OperationData<'sessions.snapshot'>>();
    expectTypeOf(client.graph.status).returns.resolves.toEqualTypeOf<OperationData<'graph.status.get'>>();
    expectTypeOf(client.graph.rollout.set).returns.resolves.toEqualTypeOf<OperationData<'graph.rollout.post'>>();
    expectTypeOf(client.management.keys.create).returns.resolves.toEqualTypeOf<OperationData<'management.keys.post'>>();
    expectTypeOf(client.management.embeddings.backfill.run).returns.resolves.toEqualTypeOf<
      OperationData<'management.embeddings.backfill.post'>
    >();
    expectTypeOf(client.management.memory.evalReplay).returns.resolves.toEqualTypeOf<
      OperationData<'management.memory.evalReplay'>
    >();
  });

  it('adds the session verdict and the optional summary to context.get', async () => {
    const context = await client.context.get({ query: 'q' });
    expectTypeOf(context).toExtend<ContextGetData>();
    expectTypeOf(context.session).toEqualTypeOf<SessionHints>();
    expectTypeOf(context.session.triggerHint).toEqualTypeOf<TriggerHint | null>();
    expectTypeOf(context.sessionSummary).toEqualTypeOf<SessionSnapshot | null | undefined>();
    expectTypeOf(context.memories[0]!.content).toEqualTypeOf<string>();
  });

  it('narrows a memory record', async () => {
    const added = await client.memories.add({ content: 'x' });
    expectTypeOf(added.memory.tags).toEqualTypeOf<string[]>();
    expectTypeOf(added.memory.type).toEqualTypeOf<'rule' | 'decision' | 'fact' | 'note' | 'skill'>();
  });
});

describe('inputs are the contract request types', () => {
  it('takes the request type of each operation', () => {
    expectTypeOf(client.memories.add).parameter(0).toExtend<OperationRequest<'memories.add'>>();
    expectTypeOf(client.memories.add).parameter(0).not.toBeAny();
    expectTypeOf(client.memories.add).parameter(0).toHaveProperty('content').toEqualTypeOf<string>();
    expectTypeOf(client.sessions.end)
      .parameter(0)
      .toHaveProperty('status')
      .toEqualTypeOf<'closed' | 'compacted' | undefined>();
    expectTypeOf(client.sessions.snapshot).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.management.keys.revoke).parameters.toEqualTypeOf<[keyId?: string]>();
    expectTypeOf(client.management.tenants.disable).parameters.toEqualTypeOf<[tenantId: string]>();
    expectTypeOf(client.management.memory.observability)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('windowHours')
      .toEqualTypeOf<number | undefined>();
  });

  it('accepts the lifecycle hints on context.get', () => {
    expectTypeOf(client.context.get)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('budgetTokens')
      .toEqualTypeOf<number | undefined>();
    expectTypeOf(client.context.get)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('strategy')
      .toEqualTypeOf<'lexical' | 'hybrid' | 'baseline' | 'hybrid_graph' | undefined>();
  });

  it('rejects wrong inputs', () => {
    // @ts-expect-error: content is required
    void client.memories.add({ type: 'rule' });
    // @ts-expect-error: not a memory type
    void client.memories.add({ content: 'x', type: 'opinion' });
    // @ts-expect-error: not a rollout mode
    void client.graph.rollout.set({ mode: 'full' });
    // @ts-expect-error: scope fields are typed
    void client.memories.list({ scope: { tenantId: 42 } });
    // @ts-expect-error: expiresAt is required
    void client.management.keys.create({});
  });
});

describe('errors', () => {
  it('narrows with isInstance', () => {
    const caught: unknown = new Error('x');
    if (RateLimitError.isInstance(caught)) expectTypeOf(caught).toEqualTypeOf<RateLimitError>();
    if (AuthError.isInstance(caught)) expectTypeOf(caught.status).toEqualTypeOf<number | null>();
    if (MemoryApiError.isInstance(caught)) expectTypeOf(caught.retryAfterSeconds).toEqualTypeOf<number | null>();
  });
});
