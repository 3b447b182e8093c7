import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { DATABASE_KEY_BYTES } from './database-key';

/**
 * Files at rest beside the database (card photos, the secrets file): AES-256-GCM, one
 * random 96-bit nonce per write. Layout: magic (4) | nonce (12) | ciphertext | tag (16).
 * Each kind has its own key, derived from the database key (HKDF-SHA256), so one secret
 * (wrapped by the OS key store in the desktop app) protects everything while no cipher ever
 * sees another's key. The file's label (e.g. a photo's object key) is authenticated with
 * the bytes, so a file renamed to another's name fails to open instead of showing the
 * wrong patient's card.
 */
export interface SealedKind {
  /** Four bytes that start every file of this kind. */
  magic: string;
  /** The HKDF info: one per kind, never reused. */
  info: string;
  /** What the user is told when a file of this kind cannot be opened. */
  what: string;
}

export const SEALED_PHOTO: SealedKind = { magic: 'CDP1', info: 'coverdesk photos v1', what: 'A stored photo' };
export const SEALED_SECRETS: SealedKind = { magic: 'CDS1', info: 'coverdesk secrets v1', what: 'The secrets file' };

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SealedFileError extends Error {
  constructor(kind: SealedKind) {
    super(`${kind.what} could not be decrypted: it was damaged, or written with another key.`);
    this.name = 'SealedFileError';
  }
}

export function deriveFileKey(databaseKey: Buffer, kind: SealedKind): Buffer {
  if (databaseKey.length !== DATABASE_KEY_BYTES) throw new Error(`A database key must be ${DATABASE_KEY_BYTES} bytes.`);
  return Buffer.from(hkdfSync('sha256', databaseKey, Buffer.alloc(0), kind.info, 32));
}

function magicOf(kind: SealedKind): Buffer {
  return Buffer.from(kind.magic, 'latin1');
}

function aad(kind: SealedKind, label: string): Buffer {
  return Buffer.concat([magicOf(kind), Buffer.from(label, 'utf8')]);
}

export function isSealed(kind: SealedKind, data: Uint8Array): boolean {
  const magic = magicOf(kind);
  return data.byteLength >= magic.length + NONCE_BYTES + TAG_BYTES && magic.equals(Buffer.from(data.subarray(0, magic.length)));
}

export function seal(fileKey: Buffer, kind: SealedKind, label: string, plaintext: Uint8Array): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', fileKey, nonce);
  cipher.setAAD(aad(kind, label));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([magicOf(kind), nonce, body, cipher.getAuthTag()]);
}

export function unseal(fileKey: Buffer, kind: SealedKind, label: string, data: Uint8Array): Buffer {
  if (!isSealed(kind, data)) throw new SealedFileError(kind);
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const start = kind.magic.length;
  const nonce = bytes.subarray(start, start + NONCE_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const body = bytes.subarray(start + NONCE_BYTES, bytes.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', fileKey, nonce);
    decipher.setAAD(aad(kind, label));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new SealedFileError(kind);
  }
}
