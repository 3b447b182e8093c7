import { fillNewPatient, memberIdField, openScreen, saveCard } from './desk-actions';
import { expect, test } from './fixtures';

// Field errors inline, in plain words — and a refused intake writes nothing.
test('an intake the contract refuses shows each problem under its field and saves nothing', async ({ desk }) => {
  const { page, web } = desk;
  const count = (table: string) => (web.host.database.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'Nina', last: 'Simone', dob: '02/21/2999' });
  await memberIdField(page).fill('M'.repeat(201));
  await page.getByRole('button', { name: 'Save card' }).click();

  await expect(page.getByText('Some fields need attention: see the messages below each one.')).toBeVisible();
  const dob = page.getByLabel('Date of birth', { exact: true });
  await expect(dob).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Date of birth must not be in the future.')).toBeVisible();
  await expect(page.getByText('Member id must be at most 200 characters.')).toBeVisible();
  await expect(memberIdField(page)).toHaveAccessibleDescription(/Member id must be at most 200 characters\./);
  await desk.shot('intake-field-errors');
  expect(count('patients')).toBe(0);
  expect(count('insurance_cards')).toBe(0);

  await page.getByLabel('Date of birth', { exact: true }).fill('2/21/1933');
  await memberIdField(page).fill('SIM-0221');
  await saveCard(page);
  expect(count('patients')).toBe(1);
  expect(count('insurance_cards')).toBe(1);
});
