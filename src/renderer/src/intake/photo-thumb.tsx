import { useEffect, useState } from 'react';
import { photoDataUrl } from './photo-file';

/** A stored photo by its object key (read through the bridge: the page has no file access). */
export function usePhotoUrl(objectKey: string | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!objectKey) return;
    let current = true;
    void window.coverdesk.photos.read({ object_key: objectKey }).then((result) => {
      if (current && result.ok) setUrl(photoDataUrl(result.value));
    });
    return () => {
      current = false;
    };
  }, [objectKey]);
  return url;
}

export function PhotoThumb({ objectKey, alt, className }: { objectKey: string | undefined; alt: string; className?: string }) {
  const url = usePhotoUrl(objectKey);
  return url ? <img src={url} alt={alt} className={className} /> : <span className="muted small">{objectKey ? 'Loading photo…' : 'No photo'}</span>;
}
