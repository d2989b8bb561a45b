import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Encrypts attach tokens at rest with AES-256-GCM under a 32-byte key. */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /**
   * Uses `MEMORY_SECRET_KEY` (64 hex chars or base64 of 32 bytes) when given; otherwise a key generated
   * once into `<dataDir>/secret.key` (mode 0600).
   */
  static load(secretKey: string | undefined, dataDir: string): SecretBox {
    if (secretKey !== undefined && secretKey !== '') return new SecretBox(parseKey(secretKey));
    const file = path.join(dataDir, 'secret.key');
    if (existsSync(file)) return new SecretBox(parseKey(readFileSync(file, 'utf8').trim()));
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    writeFileSync(file, key.toString('hex'), { mode: 0o600 });
    return new SecretBox(key);
  }

  /**
   * A keyed digest of a value (HMAC-SHA-256, hex): the same on every server sharing MEMORY_SECRET_KEY, and not
   * computable without it (names that must not be guessable, such as a tenant's sqld namespace).
   */
  digest(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('hex');
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), encrypted]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, encrypted] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || encrypted === undefined) throw new Error('unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64url')), decipher.final()]).toString('utf8');
  }
}

function parseKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('MEMORY_SECRET_KEY must be 32 bytes (64 hex characters or base64)');
  return key;
}
