/**
 * Why the last person left the desk, for the sign-in screen to say: a desk that went back to
 * the sign-in list by itself (the idle time-out, the computer locked or asleep) otherwise looks
 * like something broke. Kept in this window only, and only until the next sign-in.
 */
let note: string | null = null;

export function noteSignOut(text: string | null): void {
  note = text;
}

export function signOutNote(): string | null {
  return note;
}
