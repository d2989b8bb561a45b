import type * as Contract from '@memory-service/contract';
import type {
  ContextGetData,
  ErrorCode,
  OperationData,
  OperationRequest,
  Scope,
  SessionSnapshot,
  TriggerHint,
} from '@memory-service/contract';
import { describe, expectTypeOf, it } from 'vitest';
import {
  AuthError,
  type ClientErrorCode,
  createMemoryClient,
  type Memory,
  MemoryApiError,
  type MemoryClient,
  type MemoryErrorCode,
  type MemoryLayer,
  type MemoryType,
  type OperationId,
  RateLimitError,
  type ErrorCode as ReexportedErrorCode,
  type Scope as ReexportedScope,
  type SessionSnapshot as ReexportedSessionSnapshot,
  type RequestOptions,
  type Session,
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
    expectTypeOf(client.management.keys.revoke).parameters.toEqualTypeOf<
      [keyId?: string | undefined, options?: RequestOptions | undefined]
    >();
    expectTypeOf(client.management.tenants.disable).parameters.toEqualTypeOf<
      [tenantId: string, options?: RequestOptions | undefined]
    >();
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
      .toEqualTypeOf<'lexical' | 'hybrid' | 'baseline' | 'hybrid_graph' | 'semantic' | undefined>();
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

describe('per-call options', () => {
  it('are the last, optional argument of every method', () => {
    // Optional parameters take undefined even under exactOptionalPropertyTypes.
    expectTypeOf(client.health).parameters.toEqualTypeOf<[options?: RequestOptions | undefined]>();
    expectTypeOf(client.memories.add).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(client.context.get).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(client.sessions.snapshot).parameter(2).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(client.graph.rollout.set).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(client.management.embeddings.backfill.pause).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(client.management.keys.get).parameters.toEqualTypeOf<[options?: RequestOptions | undefined]>();
    expectTypeOf<RequestOptions>().toEqualTypeOf<{
      signal?: AbortSignal | undefined;
      timeoutMs?: number | undefined;
      totalTimeoutMs?: number | false | undefined;
      maxRetries?: number | undefined;
      headers?: Record<string, string> | undefined;
      idempotencyKey?: string | undefined;
    }>();
  });
});

describe('under exactOptionalPropertyTypes (on in this package tsconfig)', () => {
  it('is really on here', () => {
    const maybe = undefined as string | undefined;
    // @ts-expect-error: only an error when exactOptionalPropertyTypes is on
    const strict: { value?: string } = { value: maybe };
    void strict;
  });

  it('accepts possibly-undefined values for every option', () => {
    const fromEnvironment = undefined as string | undefined;
    const maybeNumber = undefined as number | undefined;
    const maybeScope = undefined as Scope | undefined;
    const memory = createMemoryClient({
      baseUrl: fromEnvironment,
      apiKey: fromEnvironment,
      adminToken: fromEnvironment,
      transport: undefined,
      scope: maybeScope,
      fetch: undefined,
      timeoutMs: maybeNumber,
      totalTimeoutMs: maybeNumber,
      maxRetries: maybeNumber,
      headers: undefined,
      retry: { initialDelayMs: maybeNumber, maxDelayMs: maybeNumber, maxRetryAfterMs: maybeNumber, random: undefined },
    });
    const maybeSignal = undefined as AbortSignal | undefined;
    const options: RequestOptions = {
      signal: maybeSignal,
      timeoutMs: maybeNumber,
      totalTimeoutMs: maybeNumber,
      maxRetries: maybeNumber,
      headers: undefined,
    };
    void memory.memories.add({ content: 'x', scope: maybeScope }, options);
    void memory.context.get({ query: 'q', sessionId: fromEnvironment, scope: maybeScope }, { signal: maybeSignal });
  });
});

describe('re-exported contract types', () => {
  it('are the contract types themselves', () => {
    expectTypeOf<ReexportedErrorCode>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<ReexportedScope>().toEqualTypeOf<Scope>();
    expectTypeOf<ReexportedSessionSnapshot>().toEqualTypeOf<SessionSnapshot>();
    expectTypeOf<Memory>().toEqualTypeOf<Contract.Memory>();
    expectTypeOf<MemoryType>().toEqualTypeOf<Contract.MemoryType>();
    expectTypeOf<MemoryLayer>().toEqualTypeOf<Contract.MemoryLayer>();
    expectTypeOf<Session>().toEqualTypeOf<Contract.Session>();
    expectTypeOf<OperationId>().toEqualTypeOf<Contract.OperationId>();
  });
});

describe('errors', () => {
  it('types code as the contract codes plus the client codes', () => {
    expectTypeOf<MemoryApiError['code']>().toEqualTypeOf<MemoryErrorCode>();
    expectTypeOf<MemoryErrorCode>().toEqualTypeOf<ErrorCode | ClientErrorCode>();
    expectTypeOf<'RATE_LIMITED'>().toExtend<MemoryErrorCode>();
    expectTypeOf<'ABORTED' | 'TIMEOUT' | 'HTTP_502'>().toExtend<ClientErrorCode>();
    const caught = new MemoryApiError({
      code: 'RATE_LIMITED',
      message: 'x',
      status: 429,
      type: 'rate_limit_error',
      retryable: true,
    });
    // @ts-expect-error: a misspelt code is caught at compile time
    void (caught.code === 'RATE_LIMTED');
  });

  it('narrows with isInstance', () => {
    const caught: unknown = new Error('x');
    if (RateLimitError.isInstance(caught)) expectTypeOf(caught).toEqualTypeOf<RateLimitError>();
    if (AuthError.isInstance(caught)) expectTypeOf(caught.status).toEqualTypeOf<number | null>();
    if (MemoryApiError.isInstance(caught)) expectTypeOf(caught.retryAfterSeconds).toEqualTypeOf<number | null>();
  });
});
