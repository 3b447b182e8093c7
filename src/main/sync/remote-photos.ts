import { createHash } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { photos } from '../db/schema';
import type { PhotoStore } from '../photos/photo-store';
import type { V1Service } from '../../shared/contract';
import { ServiceError, isServiceError } from '../../shared/service-error';

export interface RemotePhotoDeps {
  db: Db;
  photos: PhotoStore;
  /** Where the practice's photos are: the upstream sync talks to now, or null. */
  upstream(): Pick<V1Service, 'readPhoto'> | null;
}

/**
 * Photos of cards pulled from the practice are fetched the first time someone opens them,
 * not with the bootstrap (thousands of cards, most never looked at again), and stored
 * encrypted like the desk's own. A pulled card notes its photo as a row with no bytes yet.
 */
export function withRemotePhotos(service: V1Service, deps: RemotePhotoDeps): V1Service {
  const fetching = new Map<string, Promise<void>>();

  async function fetchOnce(objectKey: string): Promise<void> {
    const upstream = deps.upstream();
    if (!upstream) throw new ServiceError('service_unavailable', 'This photo is kept at the practice and this desk cannot reach it now. It will show once the desk is back online.');
    const photo = await upstream.readPhoto(objectKey);
    // The key is the photo's SHA-256: bytes that do not match it are not this photo.
    const hash = createHash('sha256').update(photo.bytes).digest('hex');
    if (!objectKey.startsWith(`${hash}.`)) throw new ServiceError('upstream_invalid_response', 'The practice answered with a different photo than the card names.', undefined, { status: 502 });
    const stored = deps.photos.put({ content_type: photo.content_type, bytes: photo.bytes });
    deps.db.update(photos).set({ byte_size: stored.byte_size }).where(eq(photos.object_key, objectKey)).run();
  }

  return {
    ...service,
    async readPhoto(objectKey) {
      try {
        return await service.readPhoto(objectKey);
      } catch (error) {
        if (!isServiceError(error) || error.code !== 'resource_not_found') throw error;
        const noted = deps.db.select({ key: photos.object_key }).from(photos).where(and(eq(photos.object_key, objectKey), isNotNull(photos.remote_id))).get();
        if (!noted) throw error;
        let running = fetching.get(objectKey);
        if (!running) {
          running = fetchOnce(objectKey).finally(() => fetching.delete(objectKey));
          fetching.set(objectKey, running);
        }
        await running;
        return service.readPhoto(objectKey);
      }
    },
  };
}
