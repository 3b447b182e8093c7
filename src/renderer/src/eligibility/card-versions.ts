import type { InsuranceCard } from '../../../shared/contract';
import { objectKeyFromUrl } from '../intake/photo-file';

export interface CardVersions {
  /** Card id → the id of the newest card made from the same photos (itself when it is the newest). */
  current: Map<string, string>;
  /** Cards a later correction replaced: kept and listed, no longer the one checks use. */
  earlier: Set<string>;
}

/**
 * Cards are never edited: a correction is a new card with the same photos (corrected-card.ts).
 * So cards that share their photos are versions of one card, and the newest of them is the
 * one in use. Photos are stored by their content, so the same key is the same picture; a
 * card without photos has no versions to find.
 */
export function cardVersions(cards: readonly InsuranceCard[]): CardVersions {
  const newestFirst = [...cards].sort((a, b) => (a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at)));
  const newestByPhotos = new Map<string, string>();
  const current = new Map<string, string>();
  const earlier = new Set<string>();
  for (const card of newestFirst) {
    const front = objectKeyFromUrl(card.front_photo_download_url);
    const back = objectKeyFromUrl(card.back_photo_download_url);
    if (!front && !back) {
      current.set(card.id, card.id);
      continue;
    }
    const key = `${front ?? ''}|${back ?? ''}`;
    const newest = newestByPhotos.get(key);
    if (newest) {
      current.set(card.id, newest);
      earlier.add(card.id);
    } else {
      newestByPhotos.set(key, card.id);
      current.set(card.id, card.id);
    }
  }
  return { current, earlier };
}
