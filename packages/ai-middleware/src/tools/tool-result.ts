import { MemoryApiError } from '@memory-service/client';

/** Why a memory tool call failed, in terms the model can act on. */
export interface MemoryToolError {
  code: string;
  message: string;
  /** Whether trying again later may work. */
  retryable: boolean;
  /** The request field that was rejected, when one was. */
  field?: string;
}

/** What every memory tool returns: the data, or an error the model can read (tools never throw). */
export type MemoryToolResult<Data> = { ok: true; data: Data } | { ok: false; error: MemoryToolError };

function toToolError(error: unknown): MemoryToolError {
  if (MemoryApiError.isInstance(error)) {
    const field = error.details['field'];
    return {
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      ...(typeof field === 'string' ? { field } : {}),
    };
  }
  return { code: 'TOOL_ERROR', message: error instanceof Error ? error.message : String(error), retryable: false };
}

/** Runs a tool's work and turns a failure into an error result instead of throwing out of the agent loop. */
export async function runTool<Data>(work: () => Promise<Data>): Promise<MemoryToolResult<Data>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    return { ok: false, error: toToolError(error) };
  }
}
