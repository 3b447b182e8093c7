import { describe, expect, it } from 'vitest';
import { EMPTY_CARD, prefillCard } from '@src/renderer/src/intake/intake-form';
import { readingFailureSentence } from '@src/renderer/src/intake/reading-failure';
import { saveAfterReading } from '@src/renderer/src/intake/save-after-reading';

const ENTITIES = [{ id: 'che_aetna', name: 'Aetna', payer_id: '60054' }];

describe('what was typed and what was read, merged', () => {
  it('keeps what was typed and fills the blanks from the card', () => {
    const { values, review, missing } = prefillCard({
      values: { ...EMPTY_CARD, member_id: 'TYPED-1', group_number: '' },
      // group_number was typed and emptied again: a blank, so the card fills it.
      touched: new Set(['member_id', 'group_number']),
      fields: {
        member_id: { value: 'W933623211', confidence: 0.99 },
        group_number: { value: '0862434', confidence: 0.93 },
        rx_bin: { value: ' 610591 ', confidence: 0.5 },
        payer_name: { value: 'AETNA', confidence: 0.97 },
      },
      entities: ENTITIES,
    });
    expect(values).toEqual({ ...EMPTY_CARD, member_id: 'TYPED-1', group_number: '0862434', rx_bin: '610591', payer_id: 'che_aetna' });
    expect([...review]).toEqual(['rx_bin']);
    expect([...missing]).toEqual([]);
  });

  it('keeps a typed payer over the one on the card', () => {
    const { values } = prefillCard({ values: { ...EMPTY_CARD, payer_id: 'che_other' }, touched: new Set(['payer_id']), fields: { payer_name: { value: 'Aetna', confidence: 0.99 } }, entities: ENTITIES });
    expect(values.payer_id).toBe('che_other');
  });

  it('flags a member id the card did not give as missing, never silent', () => {
    const { values, missing } = prefillCard({ values: EMPTY_CARD, touched: new Set(), fields: { member_id: { value: '  ', confidence: 0.2 }, group_number: { value: 'G1', confidence: 0.9 } }, entities: ENTITIES });
    expect(values.member_id).toBe('');
    expect([...missing]).toEqual(['member_id']);
    // One typed before the reading answered is not missing.
    expect([...prefillCard({ values: { ...EMPTY_CARD, member_id: 'M1' }, touched: new Set(['member_id']), fields: {}, entities: ENTITIES }).missing]).toEqual([]);
  });
});

describe('a save pressed while the card was being read', () => {
  it('goes on by itself when everything read cleanly', () => {
    expect(saveAfterReading({ state: 'done', review: 0, missingMemberId: false }, { memberId: 'W1' })).toEqual({ go: true });
  });

  it('stops and says what to check when a field was hard to read or the member id was not found', () => {
    const unclear = saveAfterReading({ state: 'done', review: 2, missingMemberId: false }, { memberId: 'W1' });
    expect(unclear).toEqual({ go: false, message: 'Not saved yet. The card was read, but 2 fields were hard to read: check them against the card (marked “Check this”). Then press Save card again.' });
    const both = saveAfterReading({ state: 'done', review: 1, missingMemberId: true }, { memberId: '' });
    expect(both).toEqual({
      go: false,
      message: 'Not saved yet. The card was read, but its member id was not found: type it in, and 1 field was hard to read: check it against the card (marked “Check this”). Then press Save card again.',
    });
  });

  it('after a failed reading saves a card typed in full, and never a blank one', () => {
    const failed = { state: 'failed' as const, message: readingFailureSentence('retake_blurry') };
    expect(saveAfterReading(failed, { memberId: 'TYPED-1' })).toEqual({ go: true });
    expect(saveAfterReading(failed, { memberId: '  ' })).toEqual({ go: false, message: `Not saved yet. ${failed.message}` });
  });
});

describe('why a card could not be read, as a sentence', () => {
  it('says retake and why for a poor photo, and never the bare code', () => {
    expect(readingFailureSentence('retake_blurry')).toMatch(/^Retake: the photo is too blurry/);
    expect(readingFailureSentence('retake_glare')).toMatch(/^Retake: glare over the member id/);
    expect(readingFailureSentence('not_a_card')).toMatch(/does not look like an insurance card/);
    for (const reason of ['unsupported_format', 'empty_file', 'image_too_large', 'unreadable_image', 'no_fields_found', 'engine_failed']) {
      expect(readingFailureSentence(reason)).not.toContain(reason);
    }
  });

  it('falls back to a plain sentence for a reason it does not know', () => {
    expect(readingFailureSentence('something_new')).toBe('The card could not be read: type the fields in from the card.');
    expect(readingFailureSentence(undefined)).toBe('The card could not be read: type the fields in from the card.');
    expect(readingFailureSentence('toString')).toBe('The card could not be read: type the fields in from the card.');
  });
});
