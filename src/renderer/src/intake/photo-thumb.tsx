import { useMemo } from 'react';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { photoDataUrl } from './photo-file';

/**
 * A stored photo by its object key (read through the bridge: the page has no file access).
 * Reading a card's photo is an audited view, like opening the record.
 */
export function usePhotoUrl(objectKey: string | undefined): string | null {
  const photo = useBridgeQuery('photos.read', objectKey ? { object_key: objectKey } : null, { view: true });
  return useMemo(() => (photo.data ? photoDataUrl(photo.data) : null), [photo.data]);
}

export function PhotoThumb({ objectKey, alt, className }: { objectKey: string | undefined; alt: string; className?: string }) {
  const url = usePhotoUrl(objectKey);
  return url ? <img src={url} alt={alt} className={className} /> : <span className="muted small">{objectKey ? 'Loading photo…' : 'No photo'}</span>;
}
