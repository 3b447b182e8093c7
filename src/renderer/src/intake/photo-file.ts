import { MAX_PHOTO_BYTES, PHOTO_CONTENT_TYPES, type PhotoContentType } from '../../../shared/contract';

export type PhotoCheck = { ok: true; content_type: PhotoContentType } | { ok: false; message: string };

/** What the host will accept, checked before the upload so the desk hears it at once. */
export function checkPhotoFile(file: { type: string; size: number }): PhotoCheck {
  if (!(PHOTO_CONTENT_TYPES as readonly string[]).includes(file.type)) {
    return { ok: false, message: 'That file is not a photo Coverdesk can read: use a JPEG or PNG.' };
  }
  if (file.size > MAX_PHOTO_BYTES) return { ok: false, message: 'That photo is larger than 10 MB: take it again at a lower resolution.' };
  if (file.size === 0) return { ok: false, message: 'That file is empty.' };
  return { ok: true, content_type: file.type as PhotoContentType };
}

/** Base64 of bytes without building one giant string argument (large photos overflow the stack). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** A photo from the store (photos.read) or from a card's download URL, as an <img> source. */
export function photoDataUrl(photo: { content_type: string; data_base64: string }): string {
  return `data:${photo.content_type};base64,${photo.data_base64}`;
}

/** Cards served by any channel name their photos by a URL ending in the object key. */
export function objectKeyFromUrl(url: string | undefined): string | undefined {
  return url ? /([0-9a-f]{64}\.(?:jpg|png))(?:[?#].*)?$/.exec(url)?.[1] : undefined;
}
