/**
 * Save pressed while the card was still being read waits for the reading (the photo is
 * saved, read, and merged into the form first: what was typed wins, read values fill the
 * blanks). Then it carries on by itself only when nothing needs a person's eye; otherwise
 * it stops and says what to look at, since the person never saw what was read.
 */
export type ReadingEnd = { state: 'done'; review: number; missingMemberId: boolean } | { state: 'failed'; message: string };

export type QueuedSave = { go: true } | { go: false; message: string };

export function saveAfterReading(end: ReadingEnd, form: { memberId: string }): QueuedSave {
  if (end.state === 'failed') {
    // Nothing was read, so nothing can be lost: a card typed in full is saved as it stands;
    // a card with no member id is not saved blank behind the person's back.
    if (form.memberId.trim()) return { go: true };
    return { go: false, message: `Not saved yet. ${end.message}` };
  }
  if (end.review === 0 && !end.missingMemberId) return { go: true };
  const parts: string[] = [];
  if (end.missingMemberId) parts.push('its member id was not found: type it in');
  if (end.review > 0) parts.push(`${end.review} ${end.review === 1 ? 'field was' : 'fields were'} hard to read: check ${end.review === 1 ? 'it' : 'them'} against the card`);
  return { go: false, message: `Not saved yet. The card was read, but ${parts.join(', and ')} (marked “Check this”). Then press Save card again.` };
}
