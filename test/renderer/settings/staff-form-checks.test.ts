import { describe, expect, it } from 'vitest';
import { passphraseProblems, staffFieldProblems } from '@src/renderer/src/settings/staff-form-checks';

describe('the staff forms’ checks before sending', () => {
  it('word the host’s own rules with the field’s label', () => {
    expect(staffFieldProblems({ name: '  ', pin: '12345', pin_confirm: '12345' })).toEqual({
      name: 'Name must not be empty.',
      pin: 'PIN or passphrase must be a PIN of 6 to 12 digits or a passphrase of at least 10 characters.',
    });
    // A passphrase: anything with a non-digit, at least 10 characters; 13 digits are neither.
    expect(staffFieldProblems({ name: 'Ana', pin: 'short pass', pin_confirm: 'short pass' })).toEqual({});
    expect(staffFieldProblems({ pin: '1234567890123', pin_confirm: '1234567890123' })).toEqual({ pin: expect.stringMatching(/^PIN or passphrase must be/) });
  });

  it('a PIN typed differently the second time is named at the second field, once the first is allowed', () => {
    expect(staffFieldProblems({ name: 'Ana', pin: '246801', pin_confirm: '246810' })).toEqual({ pin_confirm: 'PIN or passphrase again must be the same as the first: type it again.' });
    expect(staffFieldProblems({ name: 'Ana', pin: '1234', pin_confirm: '9999' })).toEqual({ pin: expect.any(String) });
  });

  it('the staff file’s passphrase: at least 10 characters, the same twice when chosen', () => {
    expect(passphraseProblems('short', 'short')).toEqual({ passphrase: 'File passphrase must be at least 10 characters.' });
    expect(passphraseProblems('blue heron at noon', 'blue heron at night')).toEqual({ passphrase_confirm: 'File passphrase again must be the same as the first: type it again.' });
    expect(passphraseProblems('blue heron at noon', 'blue heron at noon')).toEqual({});
    expect(passphraseProblems('blue heron at noon')).toEqual({});
  });
});
