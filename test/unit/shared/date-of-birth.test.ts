import { describe, expect, it } from 'vitest';
import { dateOfBirthToIso } from '@src/shared/date-of-birth';

const TODAY = '2026-11-23';

describe('date of birth with a two-digit year', () => {
  it.each([
    ['3/14/80', '1980-03-14'],
    ['03-14-05', '2005-03-14'],
    ['11/23/26', '2026-11-23'],
    ['11/24/26', '1926-11-24'],
    ['1/1/00', '2000-01-01'],
    ['12/31/99', '1999-12-31'],
    // 2/29/00: 2000 was a leap year.
    ['2/29/00', '2000-02-29'],
    // 2/29/25: not in 2025, and 1925 was no leap year either.
    ['2/29/25', null],
    ['3/14/1980', '1980-03-14'],
    ['1980-03-14', '1980-03-14'],
    ['13/14/80', null],
    ['3/14/8', null],
    ['3/14/980', null],
  ])('%s → %s', (typed, iso) => {
    expect(dateOfBirthToIso(typed, TODAY)).toBe(iso);
  });

  it('moves with today: the same digits are a different century a day later', () => {
    expect(dateOfBirthToIso('11/24/26', '2026-11-24')).toBe('2026-11-24');
  });
});
