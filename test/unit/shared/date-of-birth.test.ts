import { describe, expect, it } from 'vitest';
import { dateOfBirthToIso, otherCenturyYear } from '@src/shared/date-of-birth';

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

// Issue 26 (Low): "6/3/26" read as 2026 is said, with the other century offered.
describe('the other century of a two-digit year', () => {
  it.each([
    ['6/3/26', '2026-06-03', 1926],
    ['3/14/05', '2005-03-14', 1905],
    // Already the earlier century (2026-11-24 would be tomorrow): nothing else to offer.
    ['11/24/26', '1926-11-24', null],
    ['3/14/80', '1980-03-14', null],
    // Typed in full: the person chose the century.
    ['06/03/2026', '2026-06-03', null],
    ['2026-06-03', '2026-06-03', null],
  ])('%s read as %s → %s', (typed, iso, other) => {
    expect(otherCenturyYear(typed, iso)).toBe(other);
  });
});
