import { useEffect, useRef } from 'react';
import { WEDGE_PREFIXES } from '../../../shared/barcodes/classify-payload';

/**
 * A USB 2D scanner in keyboard mode types what it decoded, a key every few milliseconds; a
 * person types a key every hundred or so. A burst that starts like a barcode the desk reads
 * (`shc:/`, `shlink:/`, a viewer link, the AAMVA header `@`, a health card's `%B80840`) is
 * held back from the focused field and handed over whole; anything else, and a person's
 * typing, reaches the field unchanged (the few keys held while it was unsure are put back).
 */
export interface WedgeOptions {
  /** Keys further apart than this are a person typing (scanners: 5 to 15 ms, handled up to ~50 ms apart on a busy page; people: 80 ms and more). */
  maxGapMs?: number;
  /** This long without a key ends a scan. */
  endAfterMs?: number;
}

export interface WedgeDetector {
  /** A key as typed ('\n' for Enter). Returns true when the key is held back from the field. */
  key(char: string, at: number): boolean;
  /** Time has passed without a key: ends a scan or releases held keys. */
  tick(at: number): void;
}

// A scanner types every 5 to 15 ms, but a busy desk handles its keys up to ~50 ms apart
// (measured in Chromium on a loaded 2-core machine); a person's keys come 80 ms and more
// apart, and a burst is only held at all when it starts like a barcode the desk reads.
const MAX_GAP = 60;
// After the first key: a scanner types '@' with Shift around it, 70-85 ms before the next
// key on a busy desk. A person's key held this long is put back as typed.
const FIRST_GAP = 150;
// Long enough to outlast a busy renderer frame or two mid-scan (a scan ended early would type its rest into the field).
const END_AFTER = 300;

function couldBeScan(text: string): boolean {
  return WEDGE_PREFIXES.some((p) => p.toLowerCase().startsWith(text.toLowerCase()) || text.toLowerCase().startsWith(p.toLowerCase()));
}

function isScan(text: string): boolean {
  return WEDGE_PREFIXES.some((p) => text.toLowerCase().startsWith(p.toLowerCase()));
}

/** The burst logic alone (no DOM): `onScan` gets a whole payload, `onRelease` keys that were not one. */
export function createWedgeDetector(onScan: (text: string) => void, onRelease: (text: string) => void, options: WedgeOptions = {}): WedgeDetector {
  const maxGap = options.maxGapMs ?? MAX_GAP;
  const endAfter = options.endAfterMs ?? END_AFTER;
  let held = '';
  let last = 0;
  let scanning = false;
  const allowed = () => (scanning ? endAfter : held.length === 1 ? Math.max(maxGap, FIRST_GAP) : maxGap);

  const finish = () => {
    const text = held;
    held = '';
    if (scanning) {
      scanning = false;
      // A scanner ends with Enter; the payload does not.
      onScan(text.replace(/[\r\n]+$/, ''));
    } else if (text) onRelease(text);
  };

  return {
    key(char, at) {
      if (held && at - last > allowed()) finish();
      if (!held) {
        if (!couldBeScan(char)) return false;
        held = char;
        last = at;
        return true;
      }
      held += char;
      last = at;
      if (!scanning) {
        if (isScan(held)) scanning = true;
        else if (!couldBeScan(held)) {
          const text = held;
          held = '';
          onRelease(text);
          return true;
        }
      }
      return true;
    },
    tick(at) {
      if (held && at - last > allowed()) finish();
    },
  };
}

/** The key a keydown event types, or null for a key that types nothing (Shift, arrows). */
function typed(event: KeyboardEvent): string | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (event.key === 'Enter') return '\n';
  if (event.key === 'Tab') return '\t';
  return event.key.length === 1 ? event.key : null;
}

/**
 * Listens for scanner bursts on the whole window while the screen is open. Keys held back
 * and then found to be a person's are typed into the field they were meant for.
 */
export function useKeyboardWedge(onScan: (text: string) => void): void {
  const latest = useRef(onScan);
  latest.current = onScan;
  useEffect(() => {
    let target: Element | null = null;
    const release = (text: string) => {
      const field = target as HTMLInputElement | HTMLTextAreaElement | null;
      if (!field || !('value' in field) || text.includes('\n')) return;
      field.focus();
      // execCommand keeps the field's undo and fires the input event React listens to.
      document.execCommand('insertText', false, text);
    };
    const detector = createWedgeDetector((text) => latest.current(text), release);
    const onKey = (event: KeyboardEvent) => {
      const char = typed(event);
      if (char === null) return;
      // The time the key is handled, on the same clock as the ticks: an event's own timeStamp
      // is when it was made, and a busy page handles a queued burst late, so a tick between
      // two of its keys would take the gap for a person's and end the scan.
      if (detector.key(char, performance.now())) {
        target = document.activeElement;
        event.preventDefault();
        event.stopPropagation();
      }
    };
    const timer = window.setInterval(() => detector.tick(performance.now()), 20);
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.clearInterval(timer);
    };
  }, []);
}
