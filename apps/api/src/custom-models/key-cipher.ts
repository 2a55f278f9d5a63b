import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

/** A stored key that cannot be decrypted: tampered with, moved to another user, or the server key changed. */
export class KeyUnreadableError extends Error {
  override name = 'KeyUnreadableError';
}

/**
 * AES-256-GCM for users' API keys at rest. Each value gets a fresh 96-bit IV; the owner's id is
 * authenticated data, so a ciphertext copied into another user's record does not decrypt.
 * Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class KeyCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the custom model encryption key must be 32 bytes');
  }

  encrypt(plain: string, owner: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(owner, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(stored: string, owner: string): string {
    const [version, iv, tag, data] = stored.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new KeyUnreadableError('unknown key format');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(owner, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new KeyUnreadableError('the key does not decrypt with this server key');
    }
  }
}

/** The key as the API shows it: a mask and, for keys long enough to spare them, the last four characters. */
export function maskKey(key: string): string {
  return key.length >= 12 ? `••••${key.slice(-4)}` : '••••';
}
