import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { DATABASE_KEY_BYTES } from './database-key';

/**
 * Card photos at rest: AES-256-GCM, one random 96-bit nonce per file. Layout:
 * `CDP1` | nonce (12) | ciphertext | tag (16). The object key is authenticated with the
 * bytes, so a file renamed to another photo's key fails to open instead of showing the
 * wrong patient's card.
 */
const MAGIC = Buffer.from('CDP1', 'latin1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class PhotoDecryptError extends Error {
  constructor() {
    super('A stored photo could not be decrypted: it was damaged, or written with another key.');
    this.name = 'PhotoDecryptError';
  }
}

/**
 * The photo key is derived from the database key (HKDF-SHA256), so one secret protects
 * both while neither cipher ever sees the other's key.
 */
export function derivePhotoKey(databaseKey: Buffer): Buffer {
  if (databaseKey.length !== DATABASE_KEY_BYTES) throw new Error(`A database key must be ${DATABASE_KEY_BYTES} bytes.`);
  return Buffer.from(hkdfSync('sha256', databaseKey, Buffer.alloc(0), 'coverdesk photos v1', 32));
}

function aad(objectKey: string): Buffer {
  return Buffer.concat([MAGIC, Buffer.from(objectKey, 'utf8')]);
}

export function isEncryptedPhoto(data: Uint8Array): boolean {
  return data.byteLength >= MAGIC.length + NONCE_BYTES + TAG_BYTES && MAGIC.equals(Buffer.from(data.subarray(0, MAGIC.length)));
}

export function encryptPhoto(photoKey: Buffer, objectKey: string, plaintext: Uint8Array): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', photoKey, nonce);
  cipher.setAAD(aad(objectKey));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([MAGIC, nonce, body, cipher.getAuthTag()]);
}

export function decryptPhoto(photoKey: Buffer, objectKey: string, data: Uint8Array): Buffer {
  if (!isEncryptedPhoto(data)) throw new PhotoDecryptError();
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const nonce = bytes.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const body = bytes.subarray(MAGIC.length + NONCE_BYTES, bytes.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', photoKey, nonce);
    decipher.setAAD(aad(objectKey));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new PhotoDecryptError();
  }
}
