import * as z from 'zod';
import { TenantModeSchema, TenantStatusSchema } from '../enums.js';
import { TenantIdSchema } from '../scope.js';
import { MetadataRecordSchema, MetadataSchema, TimestampSchema } from './common.js';

/** One API key of the inventory (never the key itself). */
export const ApiKeyEntrySchema = z.object({
  id: z.string(),
  preview: z.string(),
  status: z.enum(['active', 'expired', 'revoked']),
  createdAt: TimestampSchema,
  expiresAt: TimestampSchema.nullable(),
  revokedAt: TimestampSchema.nullable(),
  lastUsedAt: TimestampSchema.nullable(),
  /** Whether the key's MCP clients may write rules (an additive field; see `KeysCreateInputSchema`). */
  allowRuleWrites: z.boolean(),
});

/** Key status and inventory of an owner. */
export const KeyInventorySchema = z.object({
  hasKey: z.boolean(),
  keyCount: z.number().int(),
  activeKeyCount: z.number().int(),
  primaryKeyPreview: z.string().nullable(),
  primaryKeyCreatedAt: TimestampSchema.nullable(),
  primaryKeyExpiresAt: TimestampSchema.nullable(),
  keys: z.array(ApiKeyEntrySchema),
  /**
   * Additive fields under the memories.sh names: the primary key (else the newest expired one) as one key's status.
   * `keyPreview` is absent when the owner has no such key.
   */
  keyPreview: z.string().optional(),
  createdAt: TimestampSchema.nullable(),
  expiresAt: TimestampSchema.nullable(),
  /** Whether the key described is expired: the owner has no active key, only expired ones. */
  isExpired: z.boolean(),
});

export const KeysGetInputSchema = z.strictObject({});
export const KeysGetDataSchema = KeyInventorySchema;
export const KeysCreateInputSchema = z.strictObject({
  expiresAt: z.iso.datetime({ offset: true }),
  /**
   * An additive field: let this key's MCP clients write rules (add, edit or forget memories of type or layer `rule`),
   * which MCP refuses by default; the HTTP routes accept rule writes from any key.
   */
  allowRuleWrites: z.boolean().optional(),
});
export const KeysCreateDataSchema = z.object({
  apiKey: z.string(),
  key: ApiKeyEntrySchema,
  message: z.string(),
  /** Additive fields under the memories.sh names: `key.preview`, `key.createdAt`, `key.expiresAt`. */
  keyPreview: z.string(),
  createdAt: TimestampSchema,
  expiresAt: TimestampSchema,
});
export const KeysRevokeInputSchema = z.strictObject({ keyId: z.uuid().optional() });
export const KeysRevokeDataSchema = z.object({
  revokedCount: z.number().int(),
  keyId: z.string().nullable(),
  message: z.string(),
  /** An additive field, as memories.sh answers: true. */
  ok: z.literal(true),
});

/** A tenant database mapping (the token is never returned). */
export const TenantMappingSchema = z.object({
  tenantId: z.string(),
  mode: TenantModeSchema,
  status: TenantStatusSchema,
  source: z.enum(['auto', 'override']),
  dbName: z.string().nullable(),
  dbUrl: z.string().nullable(),
  /** `dbUrl` under the memories.sh name, `""` while the mapping has none (an additive field; upstream requires it). */
  tursoDbUrl: z.string(),
  /** `dbName` under the memories.sh name (an additive field). */
  tursoDbName: z.string().nullable(),
  hasToken: z.boolean(),
  metadata: MetadataRecordSchema,
  lastError: z.string().nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});

export const TenantsListInputSchema = z.strictObject({ tenantId: TenantIdSchema.optional() });
export const TenantsListDataSchema = z.object({
  tenants: z.array(TenantMappingSchema),
  /** The same mappings under the memories.sh name (an additive field). */
  tenantDatabases: z.array(TenantMappingSchema),
  count: z.number().int(),
});
export const TenantUpsertInputSchema = z
  .strictObject({
    tenantId: TenantIdSchema,
    mode: TenantModeSchema,
    metadata: MetadataSchema.optional(),
    attachDbUrl: z.string().min(1).max(2000).optional(),
    attachDbToken: z.string().min(1).max(8000).optional(),
    attachDbName: z.string().min(1).max(200).optional(),
    /** Aliases of the three above, as the memories.sh client names them; give a field or its alias, not both. */
    tursoDbUrl: z.string().min(1).max(2000).optional(),
    tursoDbToken: z.string().min(1).max(8000).optional(),
    tursoDbName: z.string().min(1).max(200).optional(),
  })
  .superRefine((value, context) => {
    for (const [field, alias] of TENANT_ATTACH_ALIASES) {
      if (value[field] !== undefined && value[alias] !== undefined) {
        context.addIssue({ code: 'custom', path: [alias], message: `give ${field} or ${alias}, its alias, not both` });
      }
    }
    if (value.mode === 'attach' && value.attachDbUrl === undefined && value.tursoDbUrl === undefined) {
      context.addIssue({ code: 'custom', path: ['attachDbUrl'], message: 'attach mode requires attachDbUrl' });
    }
  })
  // The rules above, as the OpenAPI document states them.
  .meta({
    allOf: [
      // Attach mode names the database: not attach, or attachDbUrl, or tursoDbUrl.
      {
        anyOf: [
          { not: { required: ['mode'], properties: { mode: { const: 'attach' } } } },
          { required: ['attachDbUrl'] },
          { required: ['tursoDbUrl'] },
        ],
      },
      { not: { required: ['attachDbUrl', 'tursoDbUrl'] } },
      { not: { required: ['attachDbToken', 'tursoDbToken'] } },
      { not: { required: ['attachDbName', 'tursoDbName'] } },
    ],
  });

/** Each attach field of a tenant upsert and its memories.sh alias. */
export const TENANT_ATTACH_ALIASES = [
  ['attachDbUrl', 'tursoDbUrl'],
  ['attachDbToken', 'tursoDbToken'],
  ['attachDbName', 'tursoDbName'],
] as const;

/** A tenant upsert's attach fields with the memories.sh aliases resolved (`attachDbUrl ?? tursoDbUrl`, ...). */
export function resolveTenantAttachAliases<
  Input extends { [Key in (typeof TENANT_ATTACH_ALIASES)[number][number]]?: string | undefined },
>(input: Input): Input {
  const resolved: Input = { ...input };
  for (const [field, alias] of TENANT_ATTACH_ALIASES) {
    const value = input[field] ?? input[alias];
    delete resolved[alias];
    if (value !== undefined) resolved[field] = value as Input[typeof field];
  }
  return resolved;
}
export const TenantUpsertDataSchema = z.object({
  tenant: TenantMappingSchema,
  created: z.boolean(),
  message: z.string(),
  /** Additive fields, as memories.sh answers: `tenant` again, whether this call provisioned a database, the mode. */
  tenantDatabase: TenantMappingSchema,
  provisioned: z.boolean(),
  mode: TenantModeSchema,
});
export const TenantDisableInputSchema = z.strictObject({ tenantId: TenantIdSchema });
export const TenantDisableDataSchema = z.object({
  tenant: TenantMappingSchema,
  message: z.string(),
  /** Additive fields, as memories.sh answers: `ok` (true), and the mapping's tenantId, status and updatedAt. */
  ok: z.literal(true),
  tenantId: z.string(),
  status: TenantStatusSchema,
  updatedAt: TimestampSchema,
});
