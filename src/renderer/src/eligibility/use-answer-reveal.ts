import { useLayoutEffect, useRef } from 'react';
import type { Check } from '../../../shared/contract';

export const CHECK_RESULT_ID = 'check-result';

/**
 * Scrolls the desk's main area (only it: scrollIntoView would also move the window, banners
 * and all) so the element starts near its top.
 */
export function scrollIntoMain(element: HTMLElement): void {
  const main = element.closest<HTMLElement>('.main');
  if (!main) return;
  main.scrollTop += element.getBoundingClientRect().top - main.getBoundingClientRect().top - 16;
}

/**
 * Brings the answer into view and gives it focus (the rejection's first correction field if
 * there is one) now, before this frame paints; and into view once more at the next frame, as
 * what loads above it (a screen opened on this answer) may have pushed it down meanwhile.
 */
export function revealAnswer(): void {
  const box = document.getElementById(CHECK_RESULT_ID);
  if (!box) return;
  scrollIntoMain(box);
  const fix = box.querySelector<HTMLInputElement>('input[id^="fix-"]');
  (fix ?? box).focus({ preventScroll: true });
  requestAnimationFrame(() => {
    if (box.isConnected) scrollIntoMain(box);
  });
}

/**
 * The answer to a check arrives by itself, seconds after it was asked: when the shown check
 * goes from pending to answered (or the screen was opened to show one answer), it is
 * revealed, so "Active" is never left below the fold. In a layout effect: the frame that
 * first paints the answer paints it in view and focused (an effect or an animation frame
 * later painted it once unfocused, a frame or two of the person's wait).
 */
export function useAnswerReveal(shown: Pick<Check, 'id' | 'status'> | undefined, openedFor: string | undefined): void {
  const waited = useRef(new Set<string>());
  const openedShown = useRef(false);
  const id = shown?.id;
  const status = shown?.status;
  useLayoutEffect(() => {
    if (!id || !status) return;
    if (status === 'pending') {
      waited.current.add(id);
      return;
    }
    const opened = id === openedFor && !openedShown.current;
    if (!waited.current.delete(id) && !opened) return;
    openedShown.current = true;
    revealAnswer();
  }, [id, status, openedFor]);
}
