import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../ui/button';

interface PhotoViewerProps {
  src: string;
  /** What the photo shows ("Front of the card"): the dialog's title and the image's words. */
  title: string;
  /** The opening button's words, unique on the screen ("Enlarge the front photo"). */
  openLabel: string;
}

/**
 * A card photo shown large, to read small print against the fields: a native modal dialog
 * (focus stays inside, Escape closes), fitted to the window or at full size to scroll.
 */
export function PhotoViewer({ src, title, openLabel }: PhotoViewerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [fullSize, setFullSize] = useState(false);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const close = () => {
    setOpen(false);
    setFullSize(false);
    openRef.current?.focus();
  };

  return (
    <>
      <Button size="small" ref={openRef} onClick={() => setOpen(true)}>
        {openLabel}
      </Button>
      <dialog
        ref={ref}
        className="photo-viewer"
        aria-labelledby={`${id}-title`}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
      >
        {open && (
          <div className="stack">
            <div className="row photo-viewer__bar">
              <h2 id={`${id}-title`}>{title}</h2>
              <div className="row">
                <Button size="small" onClick={() => setFullSize((v) => !v)} aria-pressed={fullSize}>
                  {fullSize ? 'Fit to the window' : 'Full size'}
                </Button>
                <Button size="small" variant="primary" onClick={close}>
                  Close
                </Button>
              </div>
            </div>
            {/* Scrolled with the arrow keys at full size, so it takes focus. */}
            <div className={`photo-viewer__frame${fullSize ? ' photo-viewer__frame--full' : ''}`} tabIndex={fullSize ? 0 : undefined} role={fullSize ? 'region' : undefined} aria-label={fullSize ? `${title}, full size` : undefined}>
              <img src={src} alt={`${title}, enlarged`} className="photo-viewer__image" />
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}
