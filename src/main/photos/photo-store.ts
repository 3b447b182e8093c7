import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  MAX_PHOTO_BYTES,
  ObjectKey,
  PHOTO_CONTENT_TYPES,
  type PhotoContentType,
  type PhotoUpload,
  type StoredPhoto,
} from '../../shared/contract';
import { ServiceError } from '../../shared/service-error';
import { SEALED_PHOTO, deriveFileKey, isSealed, seal as sealBytes, unseal } from '../db/sealed-file';
import { writeFileAtomically } from '../support/write-file-atomically';

export interface PhotoStore {
  /** Validates and writes the bytes (once per content); the caller records the row. */
  put(upload: PhotoUpload): { object_key: string; content_type: PhotoContentType; byte_size: number };
  read(objectKey: string): StoredPhoto;
  has(objectKey: string): boolean;
}

const EXTENSIONS: Record<PhotoContentType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };
const SIGNATURES: Record<PhotoContentType, number[]> = {
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

export function validatePhoto(upload: PhotoUpload): PhotoContentType {
  const type = upload.content_type.split(';')[0].trim().toLowerCase();
  if (!(PHOTO_CONTENT_TYPES as readonly string[]).includes(type)) {
    throw new ServiceError('unsupported_media_type', `Photos must be sent as ${PHOTO_CONTENT_TYPES.join(' or ')}.`);
  }
  const contentType = type as PhotoContentType;
  if (upload.bytes.byteLength > MAX_PHOTO_BYTES) {
    throw new ServiceError('payload_too_large', `A photo must be at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB.`);
  }
  const signature = SIGNATURES[contentType];
  if (upload.bytes.byteLength < signature.length + 1 || !signature.every((byte, i) => upload.bytes[i] === byte)) {
    throw new ServiceError('validation_failed', `The photo is not a ${contentType} image.`, [
      { path: 'body', code: 'invalid_image', message: `The body must be the bytes of a ${contentType} image.` },
    ]);
  }
  return contentType;
}

/**
 * Photos as files named by content hash (docs/decisions.md, local data and the outbox): writing the same photo twice is
 * free. With a key (the host's database key) the files are AES-256-GCM encrypted; the name
 * stays the SHA-256 of the plaintext, so the same photo still dedups to one file.
 */
export interface PhotoStoreOptions {
  key?: Buffer;
  /** How a photo's file is written; tests inject a failing one (a full disk). */
  writeFile?: (file: string, bytes: Uint8Array) => void;
}

export function createPhotoStore(dir: string, options: PhotoStoreOptions = {}): PhotoStore {
  const writeFile = options.writeFile ?? writeFileAtomically;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fileOf = (objectKey: string) => path.join(dir, ObjectKey.parse(objectKey));
  const photoKey = options.key ? deriveFileKey(options.key, SEALED_PHOTO) : null;
  const seal = (objectKey: string, bytes: Uint8Array) => (photoKey ? sealBytes(photoKey, SEALED_PHOTO, objectKey, bytes) : bytes);
  const open = (objectKey: string, bytes: Uint8Array) => (photoKey ? unseal(photoKey, SEALED_PHOTO, objectKey, bytes) : bytes);
  if (photoKey) encryptPlaintextPhotos(dir, seal);

  return {
    put(upload) {
      const content_type = validatePhoto(upload);
      const hash = createHash('sha256').update(upload.bytes).digest('hex');
      const object_key = `${hash}.${EXTENSIONS[content_type]}`;
      const file = path.join(dir, object_key);
      if (!fs.existsSync(file)) writeFile(file, seal(object_key, upload.bytes));
      return { object_key, content_type, byte_size: upload.bytes.byteLength };
    },
    read(objectKey) {
      const key = ObjectKey.safeParse(objectKey);
      if (!key.success || !fs.existsSync(fileOf(objectKey))) {
        throw new ServiceError('resource_not_found', 'No photo with that object key exists.');
      }
      const content_type: PhotoContentType = objectKey.endsWith('.png') ? 'image/png' : 'image/jpeg';
      return { content_type, bytes: new Uint8Array(open(objectKey, fs.readFileSync(fileOf(objectKey)))) };
    },
    has(objectKey) {
      return ObjectKey.safeParse(objectKey).success && fs.existsSync(fileOf(objectKey));
    },
  };
}

/** Photos stored before encryption was on are encrypted in place, each under its own name. */
function encryptPlaintextPhotos(dir: string, seal: (objectKey: string, bytes: Uint8Array) => Uint8Array): void {
  for (const name of fs.readdirSync(dir)) {
    if (!ObjectKey.safeParse(name).success) continue;
    const bytes = fs.readFileSync(path.join(dir, name));
    if (!isSealed(SEALED_PHOTO, bytes)) writeFileAtomically(path.join(dir, name), seal(name, bytes));
  }
}
