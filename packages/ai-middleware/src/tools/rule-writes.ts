import type { MemoryClient, RequestOptions } from '@memory-service/client';
import {
  LIMITS,
  type MemoryLayer,
  MemoryLayerSchema,
  type MemoryType,
  MemoryTypeSchema,
  type Scope,
} from '@memory-service/contract';
import type * as z from 'zod';
import { PARAMETER_DESCRIPTIONS as parameter, RULE_WRITE_TEXTS } from '../tool-descriptions.js';
import { type MemoryToolResult, runTool } from './tool-result.js';

/**
 * The `type` field of a memory the model writes: without `allowRuleWrites` the schema does not offer `rule`, and a
 * call that sends it anyway fails validation with a message that says why.
 */
export function writableType(allowRuleWrites: boolean): z.ZodOptional<z.ZodType<MemoryType>> {
  // Typed as every memory type either way: the schema without `rule` accepts a subset of the same values.
  const schema: z.ZodType<MemoryType> = allowRuleWrites
    ? MemoryTypeSchema.describe(parameter.memoryType)
    : MemoryTypeSchema.exclude(['rule'], { error: RULE_WRITE_TEXTS.refused }).describe(parameter.writableMemoryType);
  return schema.optional();
}

/** The `layer` field of a memory the model writes, likewise without `rule` unless allowed. */
export function writableLayer(allowRuleWrites: boolean): z.ZodOptional<z.ZodType<MemoryLayer>> {
  const schema: z.ZodType<MemoryLayer> = allowRuleWrites
    ? MemoryLayerSchema.describe(parameter.layer)
    : MemoryLayerSchema.exclude(['rule'], { error: RULE_WRITE_TEXTS.refused }).describe(parameter.writableLayer);
  return schema.optional();
}

/**
 * The error result of a rule write the app did not allow (when a call gets past the schema): `field` names what asked
 * for a rule, `id` the rule an edit or forget named, `types` the types of a bulk forget.
 */
export function ruleWriteRefused(field: 'type' | 'layer' | 'id' | 'types'): MemoryToolResult<never> {
  return {
    ok: false,
    error: { code: 'RULE_WRITE_NOT_ALLOWED', message: RULE_WRITE_TEXTS.refused, retryable: false, field },
  };
}

/** Which field of a write asks for a rule, if any. */
export function ruleField(input: { type?: string | undefined; layer?: string | undefined }): 'type' | 'layer' | null {
  if (input.type === 'rule') return 'type';
  if (input.layer === 'rule') return 'layer';
  return null;
}

/**
 * Whether a memory is one of the rules `context.get` injects (the newest rule-layer memories in scope, as many as
 * the contract's `contextRules` cap): editing one would rewrite an instruction the model is told to always follow.
 */
export async function isInjectedRule(
  client: MemoryClient,
  scope: Scope | undefined,
  id: string,
  options?: RequestOptions,
): Promise<boolean> {
  const limit = Math.min(LIMITS.contextRules.max, LIMITS.listLimit.max);
  const rules = await client.memories.list({ layer: 'rule', limit, scope }, options);
  return rules.memories.some((memory) => memory.id === id);
}

/**
 * Refuses an edit or forget of one of the injected rules: the refusal, the error result when the check itself failed,
 * or null when `id` is not such a rule and the call may go on.
 */
export async function injectedRuleRefusal(
  client: MemoryClient,
  scope: Scope | undefined,
  id: string,
  options?: RequestOptions,
): Promise<MemoryToolResult<never> | null> {
  const isRule = await runTool(() => isInjectedRule(client, scope, id, options));
  if (!isRule.ok) return isRule;
  return isRule.data ? ruleWriteRefused('id') : null;
}
