// Without zod (security-contract.ts re-exports them): the idle lock and the lock screen are
// part of the page's first screen, which builds no schema before Today's first paint (issue 31).

export const IDLE_LOCK_DEFAULT_MINUTES = 5;

/** A wait in words, rounded up: the host's refusal and the lock screen's countdown say it alike. */
export function spokenWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export function pinWaitSentence(ms: number): string {
  return `Too many wrong PINs. Try again in ${spokenWait(ms)}.`;
}

/** The lock screen's line while a wait runs, or null once wrong PINs may be tried again. */
export function pinWaitText(retryAt: string | null, nowMs: number): string | null {
  const left = retryAt === null ? 0 : Date.parse(retryAt) - nowMs;
  return left > 0 ? pinWaitSentence(left) : null;
}
