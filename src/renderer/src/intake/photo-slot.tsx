import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { BridgeApi } from '../../../shared/bridge/contract';
import { useBridge } from '../bridge/bridge-provider';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';
import { bytesToBase64, checkPhotoFile } from './photo-file';
import { PhotoThumb, usePhotoUrl } from './photo-thumb';
import { PhotoViewer } from './photo-viewer';

export interface PhotoValue {
  object_key: string;
  /** For the preview: a blob: URL of what was just captured; absent for stored photos (inbox). */
  preview?: string;
}

interface PhotoSlotProps {
  side: 'front' | 'back';
  value: PhotoValue | null;
  onChange(value: PhotoValue | null): void;
  /** While the photo is being saved: the form must not be saved without it. */
  onBusyChange?(busy: boolean): void;
}

async function uploadBlob(bridge: BridgeApi, blob: Blob, contentType: 'image/jpeg' | 'image/png'): Promise<{ ok: true; object_key: string } | { ok: false; message: string }> {
  const data_base64 = bytesToBase64(new Uint8Array(await blob.arrayBuffer()));
  const result = await bridge.photos.upload({ content_type: contentType, data_base64 });
  if (result.ok) return { ok: true, object_key: result.value.object_key };
  return { ok: false, message: result.error.message };
}

/**
 * One side of the card: from the camera, a file, or a file dropped on the box. The photo
 * is stored on this computer at once (and queued upstream); only its key stays here.
 */
export function PhotoSlot({ side, value, onChange, onBusyChange }: PhotoSlotProps) {
  const bridge = useBridge();
  const title = side === 'front' ? 'Front of the card' : 'Back of the card';
  const fileRef = useRef<HTMLInputElement>(null);
  // While the photo is saved its buttons are disabled (and the camera closes), which drops
  // focus to the page; it comes back to this slot's file button when saving ends.
  const chooseRef = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [camera, setCamera] = useState(false);
  // Closing the camera (or its failing) unmounts the focused control: focus goes back to
  // "Use camera", never to the page.
  const cameraRef = useRef<HTMLButtonElement>(null);
  const [backToCamera, setBackToCamera] = useState(false);
  useEffect(() => {
    if (camera || !backToCamera) return;
    setBackToCamera(false);
    cameraRef.current?.focus();
  }, [camera, backToCamera]);
  const closeCamera = (failure?: string) => {
    setCamera(false);
    setBackToCamera(true);
    if (failure) setError(failure);
  };
  const storedUrl = usePhotoUrl(value && !value.preview ? value.object_key : undefined);
  const shownUrl = value?.preview ?? storedUrl;

  useEffect(() => {
    onBusyChange?.(busy);
  }, [busy, onBusyChange]);

  const accept = async (blob: Blob, type: string) => {
    setError(null);
    const check = checkPhotoFile({ type, size: blob.size });
    if (!check.ok) {
      setError(check.message);
      return;
    }
    refocus.current = true;
    setBusy(true);
    const uploaded = await uploadBlob(bridge, blob, check.content_type);
    setBusy(false);
    if (!uploaded.ok) {
      setError(uploaded.message);
      return;
    }
    onChange({ object_key: uploaded.object_key, preview: URL.createObjectURL(blob) });
  };

  useEffect(() => {
    if (busy || !refocus.current) return;
    refocus.current = false;
    chooseRef.current?.focus();
  }, [busy]);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void accept(file, file.type);
  };

  return (
    <div
      className={`photo-slot${dragging ? ' photo-slot--drag' : ''}`}
      role="group"
      aria-labelledby={`photo-${side}-title`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid={`photo-${side}`}
    >
      <h3 id={`photo-${side}-title`}>{title}</h3>
      {value?.preview ? (
        <img className="photo-slot__preview" src={value.preview} alt={`${title}, as captured`} />
      ) : value ? (
        <PhotoThumb objectKey={value.object_key} alt={`${title}, as scanned`} className="photo-slot__preview" />
      ) : (
        <p className="muted small">Take a photo, choose a file, or drop an image here.</p>
      )}
      {shownUrl && (
        <div className="row">
          <PhotoViewer src={shownUrl} title={title} openLabel={`Enlarge the ${side} photo`} />
        </div>
      )}
      {camera && (
        <CameraCapture
          onCancel={() => closeCamera()}
          onFail={(message) => closeCamera(message)}
          onCapture={(blob) => {
            setCamera(false);
            void accept(blob, 'image/jpeg');
          }}
        />
      )}
      <div className="row">
        {!camera && (
          <Button
            ref={cameraRef}
            onClick={() => {
              setError(null);
              setCamera(true);
            }}
            disabled={busy}
          >
            Use camera
          </Button>
        )}
        <Button ref={chooseRef} onClick={() => fileRef.current?.click()} disabled={busy}>
          Choose {side} photo…
        </Button>
        {value && (
          <Button onClick={() => onChange(null)} disabled={busy}>
            Remove
          </Button>
        )}
        <input
          ref={fileRef}
          type="file"
          accept="image/jpeg,image/png"
          hidden
          aria-label={`${title}: choose a photo file`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void accept(file, file.type);
          }}
        />
      </div>
      {busy && <p className="muted small" role="status">Saving the photo…</p>}
      {error && (
        <Notice tone="bad" live>
          {error}
        </Notice>
      )}
    </div>
  );
}

/** The camera's live picture and one button to take the photo. The camera stops when this closes. */
function CameraCapture({ onCapture, onCancel, onFail }: { onCapture(blob: Blob): void; onCancel(): void; onFail(message: string): void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  const takeRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  // Read inside the start-up effect, which runs once: the latest handler, not the first.
  const failRef = useRef(onFail);
  failRef.current = onFail;

  // Until the picture is live, focus waits on "Close camera" (the opening button is gone).
  useEffect(() => closeRef.current?.focus(), []);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    if (!navigator.mediaDevices?.getUserMedia) {
      failRef.current('No camera is available here: choose a file instead.');
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false })
      .then(async (media) => {
        if (stopped) {
          media.getTracks().forEach((t) => t.stop());
          return;
        }
        stream = media;
        const video = videoRef.current;
        if (!video) return;
        video.srcObject = media;
        await video.play();
        setReady(true);
      })
      .catch(() => {
        if (!stopped) failRef.current('The camera could not be opened. Allow camera access for Coverdesk, or choose a file instead.');
      });
    return () => {
      stopped = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  // Keyboard first: once the picture is live, Enter or Space takes the photo.
  useEffect(() => {
    if (ready) takeRef.current?.focus();
  }, [ready]);

  const take = () => {
    const video = videoRef.current;
    if (!video || !video.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    canvas.toBlob((blob) => blob && onCapture(blob), 'image/jpeg', 0.92);
  };

  return (
    <div className="stack">
      <video ref={videoRef} className="camera__video" muted playsInline aria-label="Camera preview" />
      <div className="row">
        <Button variant="primary" ref={takeRef} onClick={take} disabled={!ready}>
          Take photo
        </Button>
        <Button ref={closeRef} onClick={onCancel}>
          Close camera
        </Button>
      </div>
    </div>
  );
}
