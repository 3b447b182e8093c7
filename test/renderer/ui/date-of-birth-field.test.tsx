import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { DateOfBirthField } from '@src/renderer/src/ui/date-of-birth-field';

// Issue 26 (Low): a two-digit year is read in the latest century that is not in the future,
// and the field says which, with the other century to type in full.
it('says which century a two-digit year was read in and how to write the other', () => {
  const html = renderToStaticMarkup(<DateOfBirthField id="dob" value="6/3/26" onChange={() => undefined} />);
  expect(html).toContain('Read as June 3, 2026. The year was typed with two digits: for 1926, type it in full (06/03/1926).');
  const full = renderToStaticMarkup(<DateOfBirthField id="dob" value="06/03/2026" onChange={() => undefined} />);
  expect(full).toContain('Read as June 3, 2026.');
  expect(full).not.toContain('two digits');
});
