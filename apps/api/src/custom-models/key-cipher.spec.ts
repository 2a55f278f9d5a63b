import { randomBytes } from 'node:crypto';
import { parseEncryptionKey } from '../config/encryption-key';
import { KeyCipher, KeyUnreadableError, maskKey } from './key-cipher';

describe('KeyCipher (AES-256-GCM)', () => {
  const cipher = new KeyCipher(randomBytes(32));

  it('round-trips a key and never stores it in plain text; each encryption differs', () => {
    const key = 'sk-proj-abcdefghijklmnop1234';
    const a = cipher.encrypt(key, 'user-1');
    const b = cipher.encrypt(key, 'user-1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain('abcdefghijklmnop');
    expect(Buffer.from(a.split('.')[3], 'base64url').toString('utf8')).not.toContain('sk-proj');
    expect(cipher.decrypt(a, 'user-1')).toBe(key);
  });

  it('refuses a ciphertext moved to another user, tampered with, or read with another server key', () => {
    const stored = cipher.encrypt('sk-secret-value', 'user-1');
    expect(() => cipher.decrypt(stored, 'user-2')).toThrow(KeyUnreadableError);
    const parts = stored.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => cipher.decrypt([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'user-1')).toThrow(KeyUnreadableError);
    expect(() => new KeyCipher(randomBytes(32)).decrypt(stored, 'user-1')).toThrow(KeyUnreadableError);
    expect(() => cipher.decrypt('garbage', 'user-1')).toThrow(KeyUnreadableError);
  });

  it('masks keys to their last four characters, and short keys entirely', () => {
    expect(maskKey('sk-1234567890abcd')).toBe('••••abcd');
    expect(maskKey('ollama')).toBe('••••');
  });

  it('reads the configured key as hex or base64, 32 bytes only', () => {
    const raw = randomBytes(32);
    expect(parseEncryptionKey(raw.toString('hex')).equals(raw)).toBe(true);
    expect(parseEncryptionKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(parseEncryptionKey(raw.toString('base64url')).equals(raw)).toBe(true);
    expect(() => parseEncryptionKey(randomBytes(16).toString('hex'))).toThrow(/32 bytes/);
  });
});
