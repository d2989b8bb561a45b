import { LIMITS } from '../../packages/contract/src/index.js';
import { networkOutcome, type OutcomeTally, postJson, type Target } from './churn-http.js';
import type { McpSeed } from './churn-seed.js';

/** One of the largest MCP requests: a JSON-RPC batch of `calls` calls of one list tool on one tenant. */
export interface McpBatchShape {
  label: string;
  tool: 'list_memories' | 'list_skill_files';
  calls: number;
  tenantId: string;
  limit: number;
}

/** The largest batches: 100 full pages of capped memories, and 20 and 100 one-MiB pages of the largest skill files. */
export function largestBatches(seed: McpSeed): McpBatchShape[] {
  const memories = { tool: 'list_memories', tenantId: seed.memoryTenant, limit: 100 } as const;
  const skills = { tool: 'list_skill_files', tenantId: seed.skillTenant, limit: 500 } as const;
  return [
    { label: '100 x list_memories', calls: 100, ...memories },
    { label: '20 x list_skill_files', calls: 20, ...skills },
    { label: '100 x list_skill_files', calls: 100, ...skills },
  ];
}

/** What the batches of one shape got back. */
export interface McpBatchStats {
  label: string;
  batches: number;
  /** Calls answered with their data, and calls answered MCP_RESPONSE_BUDGET_EXCEEDED, over every batch. */
  served: number;
  overBudget: number;
  /** Other tool errors, JSON-RPC errors and HTTP failures, by code. */
  otherErrors: Record<string, number>;
  maxBytes: number;
  maxMilliseconds: number;
}

interface RpcAnswer {
  error?: { code: number };
  result?: { isError?: boolean; structuredContent?: { error?: { code?: string } } };
}

/** Answers larger than this are drained and counted, not parsed (the code before issue 23 built GB-sized ones). */
const ANSWER_CAP_BYTES = 4 * LIMITS.mcpResponseBytes;

/** Sends one batch and adds what came back to `stats` (and to the tally: the HTTP answer, then each call's outcome). */
async function sendBatch(target: Target, shape: McpBatchShape, stats: McpBatchStats, tally: OutcomeTally) {
  const body = Array.from({ length: shape.calls }, (_, index) => ({
    jsonrpc: '2.0',
    id: index + 1,
    method: 'tools/call',
    params: { name: shape.tool, arguments: { tenant_id: shape.tenantId, limit: shape.limit } },
  }));
  const other = (code: string) => {
    stats.otherErrors[code] = (stats.otherErrors[code] ?? 0) + 1;
    tally.record('mcp tool call', code);
  };
  stats.batches++;
  try {
    const answer = await postJson(target, '/api/mcp', body, {
      capBytes: ANSWER_CAP_BYTES,
      accept: 'application/json, text/event-stream',
    });
    stats.maxBytes = Math.max(stats.maxBytes, answer.bytes);
    stats.maxMilliseconds = Math.max(stats.maxMilliseconds, Math.round(answer.milliseconds));
    tally.record('mcp batch (HTTP)', String(answer.status));
    if (answer.text === null) return other(`answer over ${ANSWER_CAP_BYTES} bytes`);
    if (answer.status !== 200) return;
    const parsed = JSON.parse(answer.text) as RpcAnswer | RpcAnswer[];
    for (const each of Array.isArray(parsed) ? parsed : [parsed]) {
      const code = each.result?.structuredContent?.error?.code;
      if (each.error !== undefined) other(`jsonrpc ${each.error.code}`);
      else if (each.result?.isError !== true) {
        stats.served++;
        tally.record('mcp tool call', 'ok');
      } else if (code === 'MCP_RESPONSE_BUDGET_EXCEEDED') {
        stats.overBudget++;
        tally.record('mcp tool call', code);
      } else other(code ?? 'tool error');
    }
  } catch (error) {
    tally.record('mcp batch (HTTP)', networkOutcome(error));
  }
}

/** Sends the shapes' batches one after another, in turn, while `running()`; one request in flight at a time. */
export async function sendLargestBatches(
  target: Target,
  tally: OutcomeTally,
  { shapes, running }: { shapes: McpBatchShape[]; running: () => boolean },
): Promise<McpBatchStats[]> {
  const stats = shapes.map((shape) => ({
    label: shape.label,
    batches: 0,
    served: 0,
    overBudget: 0,
    otherErrors: {},
    maxBytes: 0,
    maxMilliseconds: 0,
  }));
  for (let index = 0; running(); index++) {
    const turn = index % shapes.length;
    await sendBatch(target, shapes[turn]!, stats[turn]!, tally);
  }
  return stats;
}
