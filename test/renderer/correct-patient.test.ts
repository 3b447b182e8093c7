import { describe, expect, it } from 'vitest';
import { correctionNote } from '@src/renderer/src/ui/correct-patient';

/** What the desk is told after correcting a patient's details: here, in the audit log, and upstream (issue 26, item 7). */
describe('correctionNote', () => {
  it('not sent yet: the service receives the corrected details', () => {
    expect(correctionNote({ upstream: 'not_sent_yet', cards_resent: 0 })).toBe(
      'Saved the corrected name and date of birth on this patient’s chart (recorded in the audit log). The eligibility service had not received this patient yet: it receives the corrected details.',
    );
  });

  it('already at the service: says plainly that it cannot change it, what is sent instead, and that checks from now on use the corrected details', () => {
    const note = correctionNote({ upstream: 'registered_again', cards_resent: 1 });
    expect(note).toMatch(/cannot change a patient it already has/);
    expect(note).toMatch(/the corrected patient and their card are sent to it as new records/);
    expect(note).toMatch(/every check and discovery sent from now on uses the corrected details/);
    expect(correctionNote({ upstream: 'registered_again', cards_resent: 2 })).toMatch(/and their 2 cards/);
    expect(correctionNote({ upstream: 'registered_again', cards_resent: 0 })).toMatch(/the corrected patient is sent to it as a new record:/);
  });
});
