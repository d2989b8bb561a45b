import type {
  OperationData,
  OperationDefinition,
  OperationId,
  OperationInput,
  ResolvedScope,
} from '@memory-service/contract';
import type { Services } from '../services.js';
import type { TenantDatabase } from '../tenancy/resolver.js';

/** Who is calling: the owner their credential belongs to. */
export interface Caller {
  ownerId: string;
  /** The API key's id, or null for the admin token or an unauthenticated route. */
  keyId: string | null;
  kind: 'apiKey' | 'admin' | 'anonymous';
  /** Whether the key was minted with the permission to write rules over MCP (`mcp/rule-write-guard.ts`). */
  allowRuleWrites: boolean;
}

/** What a handler gets besides its input. A handler never touches HTTP. */
export interface HandlerContext {
  operation: OperationDefinition;
  caller: Caller;
  /** The request's scope (null where absent). */
  scope: ResolvedScope;
  now: Date;
  requestId: string;
  services: Services;
  /** The resolved tenant database (resolved on first call, then cached for the request). */
  tenant(): Promise<TenantDatabase>;
  /** Overrides the success status (promote answers 200 when it updates). */
  setStatus(status: 200 | 201): void;
}

/** A plain async function from validated input to the envelope's data. */
export type Handler<Id extends OperationId> = (
  input: OperationInput<Id>,
  context: HandlerContext,
) => Promise<OperationData<Id>>;

/** The operations the contract's table marks `stream` (a test holds this list to the table). */
export const STREAMED_OPERATION_IDS = ['management.export', 'management.import'] as const;
export type StreamedOperationId = (typeof STREAMED_OPERATION_IDS)[number];

/** What the handler of a streamed operation gets: the caller and, for a streamed request, its body. */
export interface StreamedContext {
  operation: OperationDefinition;
  caller: Caller;
  now: Date;
  requestId: string;
  services: Services;
  /** The request body as it arrives (`stream: 'request'`), already capped by the body limit. */
  body: AsyncIterable<Uint8Array> | null;
}

/** What a streamed operation answers: lines to stream (`stream: 'response'`), or the envelope's data. */
export type StreamedAnswer<Id extends OperationId> =
  | { kind: 'lines'; lines: AsyncIterable<string> }
  | { kind: 'data'; data: OperationData<Id> };

/** The handler of a streamed operation (`pipeline/run-streamed-operation.ts` runs it; it never touches HTTP either). */
export type StreamedHandler<Id extends OperationId> = (
  input: OperationInput<Id>,
  context: StreamedContext,
) => Promise<StreamedAnswer<Id>>;

/** One handler per operation of the contract's table: a missing one is a compile error, not a runtime 404. */
export type HandlerTable = {
  readonly [Id in OperationId]: Id extends StreamedOperationId ? StreamedHandler<Id> : Handler<Id>;
};
