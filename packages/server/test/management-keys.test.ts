import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewApiKey } from '../src/auth/keys.js';
import { ADMIN_TOKEN, createTestServer, TEST_KEY, type TestServer } from './harness.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// After the real time the bootstrap key is created at, so that key stays the oldest.
const T0 = Date.parse('2030-03-10T12:00:00.000Z');

let server: TestServer;
let clock = T0;
beforeAll(async () => {
  server = await createTestServer();
  server.services.now = () => new Date(clock);
});
afterAll(async () => {
  await server.close();
});

const admin = { key: ADMIN_TOKEN };
const at = (offset: number) => new Date(T0 + offset).toISOString();

async function createKey(expiresAt: string, key: string = ADMIN_TOKEN) {
  return server.call('POST', '/management/keys', { expiresAt }, { key });
}

describe('management/keys', () => {
  it('reports the bootstrap key as the primary key of the inventory', async () => {
    const response = await server.call('GET', '/management/keys', undefined, admin);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      hasKey: true,
      keyCount: 1,
      activeKeyCount: 1,
      primaryKeyPreview: previewApiKey(TEST_KEY),
      primaryKeyExpiresAt: null,
      // The same key under the memories.sh names.
      keyPreview: previewApiKey(TEST_KEY),
      expiresAt: null,
      isExpired: false,
    });
    expect(response.body.data?.keys[0]).toMatchObject({ status: 'active', revokedAt: null, expiresAt: null });
    expect(JSON.stringify(response.body)).not.toContain(TEST_KEY);
  });

  it('creates a key shown once, usable at once, and listed by preview only', async () => {
    const created = await createKey(at(30 * DAY));
    // The contract gives no other status for POST management/keys, so it is 200 ("unless stated").
    expect(created.status).toBe(200);
    const apiKey = created.body.data?.apiKey as string;
    expect(apiKey).toMatch(/^mem_[0-9a-f]{64}$/);
    expect(created.body.data?.key).toMatchObject({
      preview: previewApiKey(apiKey),
      status: 'active',
      createdAt: at(0),
      expiresAt: at(30 * DAY),
    });
    expect((await server.call('POST', '/memories/list', {}, { key: apiKey })).status).toBe(200);
    const inventory = await server.call('GET', '/management/keys', undefined, admin);
    expect(inventory.body.data).toMatchObject({
      keyCount: 2,
      activeKeyCount: 2,
      primaryKeyPreview: previewApiKey(TEST_KEY),
    });
    expect(JSON.stringify(inventory.body)).not.toContain(apiKey);
    // Use is recorded off the request path: wait for it.
    let lastUsedAt: string | null = null;
    for (let attempt = 0; attempt < 50 && lastUsedAt === null; attempt += 1) {
      const keys = (await server.call('GET', '/management/keys', undefined, admin)).body.data?.keys;
      lastUsedAt = keys.find((key: { id: string }) => key.id === created.body.data?.key.id).lastUsedAt;
      if (lastUsedAt === null) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(lastUsedAt).toBe(at(0));
  });

  it('accepts expiresAt from exactly 1 minute to exactly 365 days ahead, and nothing outside', async () => {
    expect((await createKey(at(MINUTE))).status).toBe(200);
    expect((await createKey(at(365 * DAY))).status).toBe(200);
    for (const expiresAt of [at(MINUTE - 1), at(365 * DAY + 1), at(-DAY), 'next tuesday']) {
      const response = await createKey(expiresAt);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'expiresAt' } });
    }
    const missing = await server.call('POST', '/management/keys', {}, admin);
    expect(missing.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'expiresAt' } });
  });

  it('refuses an expired key and lists it as expired', async () => {
    const created = await createKey(at(2 * MINUTE));
    const apiKey = created.body.data?.apiKey as string;
    clock = T0 + 3 * MINUTE;
    try {
      const refused = await server.call('POST', '/memories/list', {}, { key: apiKey });
      expect(refused.status).toBe(401);
      expect(refused.body.error?.code).toBe('API_KEY_EXPIRED');
      const inventory = await server.call('GET', '/management/keys', undefined, admin);
      const entry = inventory.body.data?.keys.find((key: { id: string }) => key.id === created.body.data?.key.id);
      expect(entry.status).toBe('expired');
      // Bootstrap, 30-day, 365-day keys stay active; the 1-minute and 2-minute keys have expired.
      expect(inventory.body.data).toMatchObject({ keyCount: 5, activeKeyCount: 3 });
    } finally {
      clock = T0;
    }
  });

  it('revokes one key by id, leaving the others working', async () => {
    const created = await createKey(at(DAY));
    const { apiKey, key } = created.body.data as { apiKey: string; key: { id: string } };
    const revoked = await server.call('DELETE', `/management/keys?keyId=${key.id}`, undefined, admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ revokedCount: 1, keyId: key.id });
    const refused = await server.call('POST', '/memories/list', {}, { key: apiKey });
    expect(refused.body.error?.code).toBe('INVALID_API_KEY');
    expect((await server.call('POST', '/memories/list', {})).status).toBe(200);
    const again = await server.call('DELETE', `/management/keys?keyId=${key.id}`, undefined, admin);
    expect(again.body.data).toMatchObject({ revokedCount: 0, keyId: key.id });
    const inventory = await server.call('GET', '/management/keys', undefined, admin);
    const entry = inventory.body.data?.keys.find((each: { id: string }) => each.id === key.id);
    expect(entry).toMatchObject({ status: 'revoked', revokedAt: at(0) });
  });

  it('answers KEY_NOT_FOUND for an unknown keyId and INVALID_REQUEST for a malformed one', async () => {
    const unknown = await server.call(
      'DELETE',
      '/management/keys?keyId=00000000-0000-4000-8000-000000000000',
      undefined,
      admin,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'KEY_NOT_FOUND', type: 'not_found_error' });
    const malformed = await server.call('DELETE', '/management/keys?keyId=nope', undefined, admin);
    expect(malformed.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'keyId' } });
  });

  it('needs a credential: no header, a malformed one, an unknown key', async () => {
    expect((await server.call('GET', '/management/keys', undefined, { key: null })).body.error?.code).toBe(
      'MISSING_API_KEY',
    );
    expect((await server.call('GET', '/management/keys', undefined, { key: 'wrong-admin' })).body.error?.code).toBe(
      'INVALID_API_KEY_FORMAT',
    );
    // A key, known or not, is not a credential here: the same answer for both (no oracle for key guessing).
    expect((await server.call('GET', '/management/keys', undefined, { key: `mem_${'0'.repeat(64)}` })).status).toBe(
      403,
    );
  });

  it('serves the legacy alias /api/mcp/key with a Deprecation header', async () => {
    const legacy = await server.call('GET', '/api/mcp/key', undefined, admin);
    const current = await server.call('GET', '/management/keys', undefined, admin);
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('deprecation')).toBe('true');
    expect(legacy.body.data).toEqual(current.body.data);
  });
});

describe('keys are managed by the operator only', () => {
  it('refuses an API key on every /management/keys method, whatever its owner or lifetime', async () => {
    const now = new Date(clock);
    const { apiKey: shortKey } = await server.services.control.createKey('default', now, new Date(clock + 2 * 60_000));
    const before = (await server.services.control.listKeys('default')).length;
    const minted = await server.call('POST', '/management/keys', { expiresAt: at(364 * DAY) }, { key: shortKey });
    expect(minted.status).toBe(403);
    expect(minted.body.error).toMatchObject({ code: 'OPERATOR_CREDENTIAL_REQUIRED', type: 'auth_error' });
    expect((await server.services.control.listKeys('default')).length).toBe(before);

    const listed = await server.call('GET', '/management/keys', undefined, { key: TEST_KEY });
    expect(listed.body.error?.code).toBe('OPERATOR_CREDENTIAL_REQUIRED');
    expect(JSON.stringify(listed.body)).not.toContain('preview');

    const revokeAll = await server.call('DELETE', '/management/keys', undefined, { key: shortKey });
    expect(revokeAll.body.error?.code).toBe('OPERATOR_CREDENTIAL_REQUIRED');
    expect((await server.call('POST', '/memories/list', {})).status).toBe(200);
  });

  it("keeps another owner's key away from the keys route too", async () => {
    const now = new Date(clock);
    await server.services.control.database.run(
      "INSERT OR IGNORE INTO owners (id, name, workspace_db_url, created_at) VALUES ('other', 'Other', NULL, ?)",
      [now.toISOString()],
    );
    const { apiKey: otherKey } = await server.services.control.createKey('other', now, null);
    const defaultKeys = await server.services.control.listKeys('default');
    const foreign = await server.call('DELETE', `/management/keys?keyId=${defaultKeys[0]?.id}`, undefined, {
      key: otherKey,
    });
    expect(foreign.body.error?.code).toBe('OPERATOR_CREDENTIAL_REQUIRED');
    expect((await server.services.control.findKey('default', defaultKeys[0]?.id as string))?.revoked_at).toBeNull();
  });

  it('revokes every key of the owner; the admin token still manages them', async () => {
    const all = await server.call('DELETE', '/management/keys', undefined, admin);
    // Every key not yet revoked: bootstrap, 30-day, 1-minute, 365-day, 2-minute, and the 2-minute key of the
    // operator-only test (the clock is back at T0).
    expect(all.body.data).toMatchObject({ revokedCount: 6, keyId: null });
    expect((await server.call('POST', '/memories/list', {})).body.error?.code).toBe('INVALID_API_KEY');
    const inventory = await server.call('GET', '/management/keys', undefined, admin);
    expect(inventory.body.data).toMatchObject({
      hasKey: false,
      activeKeyCount: 0,
      primaryKeyPreview: null,
      primaryKeyCreatedAt: null,
      primaryKeyExpiresAt: null,
      createdAt: null,
      expiresAt: null,
      isExpired: false,
    });
    expect(inventory.body.data).not.toHaveProperty('keyPreview');
  });

  it('describes the newest expired key when no key is active, with isExpired true (the memories.sh status)', async () => {
    const created = await createKey(at(2 * MINUTE));
    expect(created.body.data).toMatchObject({
      keyPreview: created.body.data?.key.preview,
      createdAt: created.body.data?.key.createdAt,
      expiresAt: at(2 * MINUTE),
    });
    clock = T0 + 3 * MINUTE;
    try {
      const inventory = await server.call('GET', '/management/keys', undefined, admin);
      expect(inventory.body.data).toMatchObject({
        hasKey: false,
        primaryKeyPreview: null,
        keyPreview: created.body.data?.key.preview,
        expiresAt: at(2 * MINUTE),
        isExpired: true,
      });
    } finally {
      clock = T0;
    }
  });
});
