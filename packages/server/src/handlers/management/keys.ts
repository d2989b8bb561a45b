import { type ApiKeyEntrySchema, type KeyInventorySchema, LIMITS } from '@memory-service/contract';
import type * as z from 'zod';
import { ApiError } from '../../api-error.js';
import type { Handler } from '../../pipeline/handler-types.js';
import type { ApiKeyRow } from '../../store/control-store.js';

type ApiKeyEntry = z.infer<typeof ApiKeyEntrySchema>;
type KeyInventory = z.infer<typeof KeyInventorySchema>;

/** A key's state at `now`: revoked wins over expired. */
export function keyStatus(row: ApiKeyRow, now: Date): ApiKeyEntry['status'] {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

/** The inventory entry of a key (its preview, never the key). */
export function toKeyEntry(row: ApiKeyRow, now: Date): ApiKeyEntry {
  return {
    id: row.id,
    preview: row.preview,
    status: keyStatus(row, now),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    allowRuleWrites: Number(row.allow_rule_writes) === 1,
  };
}

/** An owner's key inventory (docs/architecture.md#errors-auth-and-limits); the primary key is the oldest active one. */
export function keyInventory(rows: readonly ApiKeyRow[], now: Date): KeyInventory {
  const keys = rows.map((row) => toKeyEntry(row, now));
  const active = keys.filter((key) => key.status === 'active');
  const primary = active[0];
  // memories.sh reads one key: the primary, else the newest expired one (rows come oldest first).
  const described = primary ?? keys.filter((key) => key.status === 'expired').at(-1);
  return {
    hasKey: active.length > 0,
    keyCount: keys.length,
    activeKeyCount: active.length,
    primaryKeyPreview: primary?.preview ?? null,
    primaryKeyCreatedAt: primary?.createdAt ?? null,
    primaryKeyExpiresAt: primary?.expiresAt ?? null,
    keys,
    ...(described === undefined ? {} : { keyPreview: described.preview }),
    createdAt: described?.createdAt ?? null,
    expiresAt: described?.expiresAt ?? null,
    isExpired: described?.status === 'expired',
  };
}

/** `GET management/keys`: the caller owner's key status and inventory. */
export const getKeys: Handler<'management.keys.get'> = async (_input, context) => {
  const rows = await context.services.control.listKeys(context.caller.ownerId);
  return keyInventory(rows, context.now);
};

/**
 * `POST management/keys`: a new key expiring 1 minute to 365 days ahead, allowed to write rules over MCP when asked;
 * the key is in the answer once.
 */
export const createKey: Handler<'management.keys.post'> = async (input, context) => {
  const expiresAt = new Date(input.expiresAt);
  const ahead = expiresAt.getTime() - context.now.getTime();
  if (!(ahead >= LIMITS.keyExpiry.minMs && ahead <= LIMITS.keyExpiry.maxMs)) {
    throw new ApiError('INVALID_REQUEST', 'expiresAt: must be between 1 minute and 365 days from now', {
      field: 'expiresAt',
    });
  }
  const { apiKey, row } = await context.services.control.createKey(context.caller.ownerId, context.now, expiresAt, {
    allowRuleWrites: input.allowRuleWrites === true,
  });
  context.services.logger.info('api key created', {
    keyId: row.id,
    expiresAt: row.expires_at,
    allowRuleWrites: Number(row.allow_rule_writes) === 1,
  });
  const key = toKeyEntry(row, context.now);
  return {
    apiKey,
    key,
    message: 'API key created: store it now, it is not shown again',
    keyPreview: key.preview,
    createdAt: key.createdAt,
    expiresAt: row.expires_at ?? expiresAt.toISOString(),
  };
};

/** `DELETE management/keys`: revokes one key of the caller owner (`keyId`), or all of them. */
export const revokeKeys: Handler<'management.keys.delete'> = async (input, context) => {
  const { control, logger } = context.services;
  const ownerId = context.caller.ownerId;
  if (input.keyId === undefined) {
    const revokedCount = await control.revokeKeys(ownerId, context.now);
    logger.info('api keys revoked', { revokedCount });
    return { revokedCount, keyId: null, message: `${revokedCount} key(s) revoked`, ok: true };
  }
  const row = await control.findKey(ownerId, input.keyId);
  if (row === undefined) throw new ApiError('KEY_NOT_FOUND', `No key with id ${input.keyId} belongs to this owner`);
  const revokedCount = await control.revokeKeys(ownerId, context.now, input.keyId);
  logger.info('api key revoked', { keyId: input.keyId, revokedCount });
  return {
    revokedCount,
    keyId: input.keyId,
    message: revokedCount === 1 ? 'Key revoked' : 'Key was already revoked',
    ok: true,
  };
};
