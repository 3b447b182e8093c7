import { MAX_LIST_LIMIT, type ClearinghouseEntity, type V1Service } from '../../shared/contract';
import type { ExtractionImage } from './extraction-engine';

/** Every known clearinghouse entity (all pages): the payer is matched against their names. */
export async function knownEntities(service: Pick<V1Service, 'list'>): Promise<ClearinghouseEntity[]> {
  const entities: ClearinghouseEntity[] = [];
  let cursor: string | undefined;
  do {
    const page = await service.list('clearinghouse_entities', { limit: MAX_LIST_LIMIT, cursor });
    entities.push(...page.data);
    cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
  } while (cursor);
  return entities;
}

/** A card's stored photos, front first, as the engine reads them. */
export async function readCardPhotos(service: Pick<V1Service, 'readPhoto'>, keys: (string | null | undefined)[]): Promise<ExtractionImage[]> {
  const images: ExtractionImage[] = [];
  for (const key of keys) {
    if (!key) continue;
    const photo = await service.readPhoto(key);
    images.push({ bytes: photo.bytes, content_type: photo.content_type });
  }
  return images;
}
