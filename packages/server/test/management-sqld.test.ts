import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { namespaceFetch } from '../src/tenancy/host-routed-fetch.js';
import { SecretBox } from '../src/tenancy/secrets.js';
import { namespaceName } from '../src/tenancy/sqld-provisioner.js';
import { createTestServer, type TestServer } from './harness.js';
import { freePort, type SqldServer, startSqld } from './sqld.js';

/** An EdDSA JWT (what sqld's `--auth-jwt-key-file` verifies), signed with an Ed25519 private key. */
function makeJwt(privateKey: KeyObject): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `${unsigned}.${sign(null, Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

async function readContents(location: { url: string; authToken?: string; fetch?: typeof fetch }): Promise<string[]> {
  const database = await Database.open(location);
  try {
    const rows = await database.all<{ content: string }>('SELECT content FROM memories ORDER BY seq');
    return rows.map((row) => row.content);
  } finally {
    database.close();
  }
}

describe('attach to a libSQL server that checks JWTs', () => {
  const keyDirectory = mkdtempSync(path.join(tmpdir(), 'sqld-jwt-'));
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const token = makeJwt(privateKey);
  let sqld: SqldServer;
  let server: TestServer;
  beforeAll(async () => {
    const keyFile = path.join(keyDirectory, 'jwt-public.pem');
    writeFileSync(keyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    sqld = await startSqld({ args: ['--auth-jwt-key-file', keyFile] });
    // The sqld of these tests listens on loopback, which attach refuses unless the operator allows it.
    server = await createTestServer({ attachAllowPrivateNetworks: true });
  });
  afterAll(async () => {
    await server.close();
    await sqld.stop();
    rmSync(keyDirectory, { recursive: true, force: true });
  });

  const attach = (attachDbToken?: string, tenantId = 'attached') =>
    server.call('POST', '/management/tenant-overrides', {
      tenantId,
      mode: 'attach',
      attachDbUrl: sqld.url,
      attachDbName: 'shared-sqld',
      ...(attachDbToken === undefined ? {} : { attachDbToken }),
    });

  it('refuses a missing or wrong token (SELECT 1 fails) and saves nothing', async () => {
    const missing = await attach();
    expect(missing.status).toBe(409);
    expect(missing.body.error).toMatchObject({ code: 'TENANT_DATABASE_UNREACHABLE' });
    const stranger = makeJwt(generateKeyPairSync('ed25519').privateKey);
    const wrong = await attach(stranger);
    expect(wrong.body.error).toMatchObject({ code: 'TENANT_DATABASE_UNREACHABLE' });
    expect(JSON.stringify(wrong.body)).not.toContain(stranger);
    expect(await server.services.registry.find('default', 'attached')).toBeUndefined();
  });

  it('attaches with the right token, keeps it sealed, and serves the tenant from the server', async () => {
    const response = await attach(token);
    expect(response.status).toBe(200);
    expect(response.body.data?.tenant).toMatchObject({
      tenantId: 'attached',
      mode: 'attach',
      status: 'ready',
      dbUrl: sqld.url,
      dbName: 'shared-sqld',
      hasToken: true,
    });
    expect(JSON.stringify(response.body)).not.toContain(token);
    const listed = await server.call('GET', '/management/tenant-overrides?tenantId=attached');
    expect(JSON.stringify(listed.body)).not.toContain(token);
    const row = await server.services.registry.find('default', 'attached');
    expect(row?.db_token_encrypted).toMatch(/^v1\./);
    expect(row?.db_token_encrypted).not.toContain(token.slice(0, 20));
    expect(server.services.secrets.decrypt(row?.db_token_encrypted ?? '')).toBe(token);

    await server.post('/memories/add', { content: 'stored on the libSQL server', scope: { tenantId: 'attached' } });
    expect(await readContents({ url: sqld.url, authToken: token })).toEqual(['stored on the libSQL server']);
  });

  it('keeps the stored token on an update without one, and drops the cached handle', async () => {
    const updated = await server.call('POST', '/management/tenant-overrides', {
      tenantId: 'attached',
      mode: 'attach',
      attachDbUrl: sqld.url,
      metadata: { region: 'eu' },
    });
    expect(updated.body.data).toMatchObject({
      created: false,
      tenant: { hasToken: true, dbName: 'shared-sqld', metadata: { region: 'eu' } },
    });
    const listed = await server.post<{ memories: Array<{ content: string }> }>('/memories/list', {
      scope: { tenantId: 'attached' },
    });
    expect(listed.memories.map((memory) => memory.content)).toEqual(['stored on the libSQL server']);
  });
});

describe('attach without credentials', () => {
  let sqld: SqldServer;
  let server: TestServer;
  beforeAll(async () => {
    sqld = await startSqld();
    server = await createTestServer({ attachAllowPrivateNetworks: true });
  });
  afterAll(async () => {
    await server.close();
    await sqld.stop();
  });

  it('saves a mapping to an open server, whose requests then answer TENANT_DATABASE_CREDENTIALS_MISSING', async () => {
    const response = await server.call('POST', '/management/tenant-overrides', {
      tenantId: 'open',
      mode: 'attach',
      attachDbUrl: sqld.url,
    });
    expect(response.status).toBe(200);
    expect(response.body.data?.tenant.hasToken).toBe(false);
    expect(response.body.data?.message).toContain('TENANT_DATABASE_CREDENTIALS_MISSING');
    const refused = await server.call('POST', '/memories/list', { scope: { tenantId: 'open' } });
    expect(refused.status).toBe(404);
    expect(refused.body.error?.code).toBe('TENANT_DATABASE_CREDENTIALS_MISSING');
  });
});

describe('provision with the sqld provisioner', () => {
  let sqld: SqldServer;
  let server: TestServer;
  beforeAll(async () => {
    sqld = await startSqld({ namespaces: true });
    server = await createTestServer({
      tenantProvisioner: 'sqld',
      sqldAdminUrl: sqld.adminUrl ?? undefined,
      sqldUrl: sqld.url,
    });
  });
  afterAll(async () => {
    await server.close();
    await sqld.stop();
  });

  it('creates a namespace per tenant; the tenant’s memories land in it and nowhere else', async () => {
    const response = await server.call('POST', '/management/tenant-overrides', {
      tenantId: 'Acme.Corp',
      mode: 'provision',
    });
    expect(response.status).toBe(200);
    const namespace = namespaceName('default', 'Acme.Corp', (value) => server.services.secrets.digest(value));
    expect(namespace).toMatch(/^acme-corp-[0-9a-f]{24}$/);
    expect(response.body.data?.tenant).toMatchObject({
      mode: 'provision',
      status: 'ready',
      dbUrl: sqld.url,
      dbName: namespace,
    });
    await server.post('/memories/add', { content: 'acme lives in a namespace', scope: { tenantId: 'Acme.Corp' } });
    await server.post('/memories/add', { content: 'beta gets its own', scope: { tenantId: 'beta' } });
    expect(await readContents({ url: sqld.url, fetch: namespaceFetch(namespace) })).toEqual([
      'acme lives in a namespace',
    ]);
    const beta = namespaceName('default', 'beta', (value) => server.services.secrets.digest(value));
    expect(await readContents({ url: sqld.url, fetch: namespaceFetch(beta) })).toEqual(['beta gets its own']);
    const mapping = await server.services.registry.find('default', 'beta');
    expect(mapping).toMatchObject({ source: 'auto', db_url: sqld.url, db_name: beta });
  });

  it('names namespaces by a digest under the server secret: not computable from owner and tenant', async () => {
    const { createHash } = await import('node:crypto');
    const name = (await server.services.registry.find('default', 'Acme.Corp'))?.db_name as string;
    // The name an outsider could compute before: sha256 of owner and tenant. It is not the name any more.
    const computable = createHash('sha256').update('default\u0000Acme.Corp').digest('hex').slice(0, 12);
    expect(name).not.toContain(computable);
    const otherSecret = SecretBox.load('ab'.repeat(32), server.dataDir);
    expect(namespaceName('default', 'Acme.Corp', (value) => otherSecret.digest(value))).not.toBe(name);
    // Nobody reaches the namespace under the old, computable name.
    const guessed = `acme-corp-${computable}`;
    await expect(readContents({ url: sqld.url, fetch: namespaceFetch(guessed) })).rejects.toThrow();
  });

  it('upserts an existing namespace mapping without losing its data', async () => {
    const response = await server.call('POST', '/management/tenant-overrides', { tenantId: 'beta', mode: 'provision' });
    expect(response.body.data).toMatchObject({
      created: false,
      tenant: {
        source: 'override',
        dbName: namespaceName('default', 'beta', (value) => server.services.secrets.digest(value)),
      },
    });
    const listed = await server.post<{ memories: Array<{ content: string }> }>('/memories/list', {
      scope: { tenantId: 'beta' },
    });
    expect(listed.memories.map((memory) => memory.content)).toEqual(['beta gets its own']);
  });
});

describe('provision when the admin API is down', () => {
  let server: TestServer;
  beforeAll(async () => {
    const port = await freePort();
    server = await createTestServer({
      tenantProvisioner: 'sqld',
      sqldAdminUrl: `http://127.0.0.1:${port}`,
      sqldUrl: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 409 on upsert and TENANT_DATABASE_NOT_READY on auto-provision, saving nothing', async () => {
    const upsert = await server.call('POST', '/management/tenant-overrides', { tenantId: 'later', mode: 'provision' });
    expect(upsert.status).toBe(409);
    expect(upsert.body.error?.code).toBe('TENANT_DATABASE_UNREACHABLE');
    // A write: reads of an unknown tenant create nothing (tenant-quota.test.ts).
    const auto = await server.call('POST', '/memories/add', { content: 'first', scope: { tenantId: 'later' } });
    expect(auto.status).toBe(409);
    expect(auto.body.error).toMatchObject({ code: 'TENANT_DATABASE_NOT_READY', retryable: true });
    expect(await server.services.registry.find('default', 'later')).toBeUndefined();
  });
});
