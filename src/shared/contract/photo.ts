import { z } from 'zod';

export const PHOTO_CONTENT_TYPES = ['image/jpeg', 'image/png'] as const;
export const PhotoContentType = z.enum(PHOTO_CONTENT_TYPES);
export type PhotoContentType = z.infer<typeof PhotoContentType>;

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_JSON_BYTES = 1024 * 1024;

/** An object key names a stored photo: its SHA-256 and an extension for its type. */
export const ObjectKey = z.string().regex(/^[0-9a-f]{64}\.(jpg|png)$/, 'must be an object key returned by POST /v1/photos');

export const PhotoObject = z.object({ object_key: ObjectKey });
export type PhotoObject = z.infer<typeof PhotoObject>;

export interface PhotoUpload {
  content_type: string;
  bytes: Uint8Array;
}

export interface StoredPhoto {
  content_type: PhotoContentType;
  bytes: Uint8Array;
}
