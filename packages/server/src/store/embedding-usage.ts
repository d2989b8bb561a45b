import type { InStatement } from '@libsql/client';
import type { Database } from './database.js';

/** One metered embedding request: who (tenant, project), which model, how much. */
export interface UsageEvent {
  tenantId: string | null;
  projectId: string | null;
  modelId: string;
  provider: string;
  items: number;
  tokens: number;
  costPerMillionTokensUsd: number;
}

/** The first day of the month of a date, `YYYY-MM-01` (UTC). */
export function monthStart(date: Date): string {
  return `${date.toISOString().slice(0, 7)}-01`;
}

/** The statement adding one request to the month's row of its tenant, project, model and provider. */
export function usageStatement(event: UsageEvent, now: Date): InStatement {
  const cost = (event.tokens * event.costPerMillionTokensUsd) / 1_000_000;
  return {
    sql: `INSERT INTO embedding_usage (usage_month, tenant_key, project_key, model_id, provider, request_count,
            item_count, token_count, estimated_cost_usd, updated_at)
          VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
          ON CONFLICT (usage_month, tenant_key, project_key, model_id, provider) DO UPDATE SET
            request_count = request_count + 1,
            item_count = item_count + excluded.item_count,
            token_count = token_count + excluded.token_count,
            estimated_cost_usd = estimated_cost_usd + excluded.estimated_cost_usd,
            updated_at = excluded.updated_at`,
    args: [
      monthStart(now),
      event.tenantId ?? '',
      event.projectId ?? '',
      event.modelId,
      event.provider,
      event.items,
      event.tokens,
      cost,
      now.toISOString(),
    ],
  };
}

/** Usage figures as the contract reports them. */
export interface UsageFigures {
  requestCount: number;
  itemCount: number;
  tokenCount: number;
  estimatedCostUsd: number;
}

/** A breakdown row: figures of one tenant, project, model and provider. */
export interface UsageBreakdownRow extends UsageFigures {
  tenantId: string | null;
  projectId: string | null;
  modelId: string;
  provider: string;
}

/** Costs are summed in floating point; report them to a millionth of a dollar. */
const roundCost = (value: number) => Math.round(value * 1_000_000) / 1_000_000;

interface UsageRow {
  tenant_key: string;
  project_key: string;
  model_id: string;
  provider: string;
  request_count: number;
  item_count: number;
  token_count: number;
  estimated_cost_usd: number;
}

/** A month's usage (optionally one project's, optionally one model's): summary over all rows, top rows by tokens. */
export async function usageReport(
  database: Database,
  options: { usageMonth: string; projectId?: string | null; modelId?: string; limit: number },
): Promise<{ summary: UsageFigures; breakdown: UsageBreakdownRow[] }> {
  // Query embeddings are metered through the log buffer: write them first, so the report counts every call.
  await database.logs.flush();
  const conditions = ['usage_month = ?'];
  const args: string[] = [options.usageMonth];
  if (options.projectId !== undefined && options.projectId !== null) {
    conditions.push('project_key = ?');
    args.push(options.projectId);
  }
  if (options.modelId !== undefined) {
    conditions.push('model_id = ?');
    args.push(options.modelId);
  }
  const rows = await database.all<UsageRow>(
    `SELECT tenant_key, project_key, model_id, provider, request_count, item_count, token_count, estimated_cost_usd
       FROM embedding_usage WHERE ${conditions.join(' AND ')}
      ORDER BY token_count DESC, model_id, project_key`,
    args,
  );
  const figures = (row: UsageRow): UsageFigures => ({
    requestCount: Number(row.request_count),
    itemCount: Number(row.item_count),
    tokenCount: Number(row.token_count),
    estimatedCostUsd: roundCost(Number(row.estimated_cost_usd)),
  });
  const summary = rows.map(figures).reduce(
    (total, row) => ({
      requestCount: total.requestCount + row.requestCount,
      itemCount: total.itemCount + row.itemCount,
      tokenCount: total.tokenCount + row.tokenCount,
      estimatedCostUsd: total.estimatedCostUsd + row.estimatedCostUsd,
    }),
    { requestCount: 0, itemCount: 0, tokenCount: 0, estimatedCostUsd: 0 },
  );
  return {
    summary: { ...summary, estimatedCostUsd: roundCost(summary.estimatedCostUsd) },
    breakdown: rows.slice(0, options.limit).map((row) => ({
      tenantId: row.tenant_key === '' ? null : row.tenant_key,
      projectId: row.project_key === '' ? null : row.project_key,
      modelId: row.model_id,
      provider: row.provider,
      ...figures(row),
    })),
  };
}
