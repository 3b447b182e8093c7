import { describe, expect, it } from 'vitest';
import { memberNamesPatient, splitMemberName } from '@src/renderer/src/intake/member-name';

describe('the member name on a card as the patient’s first and last name', () => {
  it.each([
    ['DOE, JANE', 'Jane', 'Doe'],
    ['DOE, JANE M', 'Jane', 'Doe'],
    ['DOE JR, JOHN', 'John', 'Doe'],
    ['SMITH-JONES, MARY ANN', 'Mary', 'Smith-Jones'],
    ['JANE M DOE', 'Jane', 'Doe'],
    ['JENNIFER R FITZGERALD', 'Jennifer', 'Fitzgerald'],
    ['JOHN Q PUBLIC III', 'John', 'Public'],
    ['ROBERT O\'BRIEN', 'Robert', 'O\'Brien'],
    ['ANGUS MCDONALD', 'Angus', 'McDonald'],
    ['JUAN DE LA CRUZ', 'Juan', 'De la Cruz'],
    ['LUDWIG VAN BEETHOVEN', 'Ludwig', 'Van Beethoven'],
    ['VAN NGUYEN', 'Van', 'Nguyen'],
    ['Jennifer R Fitzgerald', 'Jennifer', 'Fitzgerald'],
    ['DeShawn McKenzie', 'DeShawn', 'McKenzie'],
    ['  maria   lopez  ', 'Maria', 'Lopez'],
  ])('%s → %s / %s', (printed, first, last) => {
    expect(splitMemberName(printed)).toEqual({ first, last });
  });

  it.each([[''], ['   '], ['MADONNA'], ['DOE,'], [', JANE'], ['W933623211'], ['MEMBER 12345']])('offers nothing for %j', (printed) => {
    expect(splitMemberName(printed)).toBeNull();
  });
});

// Issue 26, item 6: a card whose member is someone else is asked about before it is saved to the chosen patient.
describe('whether the member printed on a card is the chosen patient', () => {
  const emily = { first_name: 'Emily', last_name: 'Dickinson' };
  it.each(['DICKINSON, EMILY', 'EMILY E DICKINSON', 'E DICKINSON', 'dickinson emily jr', '  '])('%s names Emily Dickinson', (printed) => {
    expect(memberNamesPatient(printed, emily)).toBe(true);
  });
  it.each(['SUBSCRIBER SMITH', 'JOHN DICKINSON', 'EMILY DICKENS', 'DICKINSON'])('%s does not', (printed) => {
    expect(memberNamesPatient(printed, emily)).toBe(false);
  });
  it('forgives accents, apostrophes and hyphens', () => {
    expect(memberNamesPatient('NUNEZ-OBRIEN, JOSE', { first_name: 'José', last_name: "Núñez-O'Brien" })).toBe(true);
  });
});
