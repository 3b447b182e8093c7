import { describe, expect, it } from 'vitest';
import { patientFromQuery } from '@src/renderer/src/ui/register-patient';

/** "No one matches" → register here: the form starts from what the desk searched for. */
describe('patientFromQuery', () => {
  it.each([
    ['Ines Okafor', { first_name: 'Ines', last_name: 'Okafor', date_of_birth: '' }],
    ['Okafor, Ines', { first_name: 'Ines', last_name: 'Okafor', date_of_birth: '' }],
    ['Mary Ann Okafor', { first_name: 'Mary Ann', last_name: 'Okafor', date_of_birth: '' }],
    ['okafor', { first_name: '', last_name: 'okafor', date_of_birth: '' }],
    ['3/14/1980', { first_name: '', last_name: '', date_of_birth: '03/14/1980' }],
    // A member id is no part of a name.
    ['W100200300', { first_name: '', last_name: '', date_of_birth: '' }],
  ])('%s', (query, expected) => {
    expect(patientFromQuery(query)).toEqual(expected);
  });
});
