import { AUTH_CREDENTIALS, type AuthKind } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import { API_KEY_PATTERN, hashApiKey, secretsEqual } from '../auth/keys.js';
import type { Services } from '../services.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import type { Caller } from './handler-types.js';

const ANONYMOUS: Caller = { ownerId: DEFAULT_OWNER_ID, keyId: null, kind: 'anonymous', allowRuleWrites: false };

/** Reads the bearer token of an Authorization header value; null when absent. */
export function bearerToken(authorization: string | null | undefined): string | null {
  if (authorization === null || authorization === undefined || authorization.trim() === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  if (!match?.[1]) {
    throw new ApiError('INVALID_API_KEY_FORMAT', 'The Authorization header must be "Bearer <API key>"');
  }
  return match[1];
}

/**
 * Authenticates a request with the credentials its route takes (`AUTH_CREDENTIALS` of the table's `auth`). API keys
 * are looked up by SHA-256 hash; the admin token (MEMORY_ADMIN_TOKEN) stands for the default owner's session on
 * `apiKeyOrSession` routes and is the only credential `management` routes (`/management/keys`) take.
 */
export async function authenticate(
  services: Services,
  auth: AuthKind,
  authorization: string | null | undefined,
): Promise<Caller> {
  if (auth === 'none') return ANONYMOUS;
  const token = bearerToken(authorization);
  if (token === null)
    throw new ApiError('MISSING_API_KEY', 'An API key is required: send "Authorization: Bearer mem_..."');
  const adminToken = services.config.adminToken;
  const credentials = AUTH_CREDENTIALS[auth];
  const takesAdminToken = credentials.includes('adminToken');
  if (takesAdminToken && adminToken !== undefined && adminToken !== '' && secretsEqual(token, adminToken)) {
    return { ownerId: DEFAULT_OWNER_ID, keyId: null, kind: 'admin', allowRuleWrites: false };
  }
  if (!credentials.includes('apiKey') && API_KEY_PATTERN.test(token)) {
    // A key that could mint keys outlives its own expiry and revocation (its children survive both): keys are
    // managed by the operator only.
    throw new ApiError(
      'OPERATOR_CREDENTIAL_REQUIRED',
      adminToken
        ? 'API keys cannot manage keys: send the admin token (MEMORY_ADMIN_TOKEN), or use `memory-service keys`'
        : 'API keys cannot manage keys: use `memory-service keys` on the server, or set MEMORY_ADMIN_TOKEN',
    );
  }
  if (!API_KEY_PATTERN.test(token)) {
    throw new ApiError('INVALID_API_KEY_FORMAT', 'API keys are "mem_" followed by 64 hexadecimal characters');
  }
  const row = await services.control.findKeyByHash(hashApiKey(token));
  const now = services.now();
  if (row === undefined || row.revoked_at !== null) throw new ApiError('INVALID_API_KEY', 'The API key is not valid');
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) {
    throw new ApiError('API_KEY_EXPIRED', 'The API key has expired');
  }
  void services.control.touchKey(row.id, now).catch(() => undefined);
  return { ownerId: row.owner_id, keyId: row.id, kind: 'apiKey', allowRuleWrites: Number(row.allow_rule_writes) === 1 };
}
