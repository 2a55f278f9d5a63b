/** The 32-byte key from its configured text: 64 hex digits or base64(url). */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32) throw new Error('the custom model encryption key must be 32 bytes (64 hex digits or base64)');
  return key;
}
