import { describe, expect, it } from 'vitest';
import { createDraftShelf, emptyDraft } from '@src/renderer/src/intake/intake-draft';

describe('each person’s Intake draft (issue 28, item 6)', () => {
  it('keeps a half-filled draft for its person, hands the next person nothing of it, and forgets an empty one', () => {
    const shelf = createDraftShelf();
    const anas = { ...emptyDraft(), patient: { ...emptyDraft().patient, first_name: 'Half' } };
    shelf.keep('stf_ana', anas);
    expect(shelf.take('stf_ben')).toBeUndefined();
    expect(shelf.take('stf_ana')).toBe(anas);
    shelf.keep('stf_ana', emptyDraft());
    expect(shelf.take('stf_ana')).toBeUndefined();
  });
});
