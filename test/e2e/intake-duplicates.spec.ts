import { fillNewPatient, memberIdField, openScreen, saveCard } from './desk-actions';
import { expect, test } from './fixtures';

// One patient, one record (issue 17): the same person typed again is offered, not registered twice.
test('intake offers the patient already registered (case, accents and name order forgiven) instead of a silent twin', async ({ desk }) => {
  const { page, web } = desk;
  const count = (table: string) => (web.host.database.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'José', last: 'Peña', dob: '03/14/1961' });
  await memberIdField(page).fill('PENA-0314');
  await saveCard(page);
  expect(count('patients')).toBe(1);

  // Again, typed differently: names swapped, no accents, other case.
  await openScreen(page, 'Intake');
  // Intake opens on the patient just seen; this is a new registration.
  await page.getByRole('radio', { name: 'New patient' }).check();
  await fillNewPatient(page, { first: 'PENA', last: 'jose', dob: '03/14/1961' });
  await memberIdField(page).fill('PENA-0314');
  await page.getByRole('button', { name: 'Save card' }).click();
  const offer = page.getByRole('region', { name: 'This person may already be registered.' });
  await expect(offer).toBeVisible();
  await expect(offer.getByText(/Peña, José/)).toBeVisible();
  await expect(offer.getByText(/same name and date of birth, same member id on a card/)).toBeVisible();
  await desk.shot('intake-duplicate-offer');
  expect(count('patients')).toBe(1);
  expect(count('insurance_cards')).toBe(1);

  await offer.getByRole('button', { name: 'Use this patient' }).click();
  await expect(page.getByText(/Patient: Peña, José/)).toBeVisible();
  await saveCard(page);
  expect(count('patients')).toBe(1);
  expect(count('insurance_cards')).toBe(2);

  // A different person with the same birth date is someone else: the desk says so and registers them.
  await openScreen(page, 'Intake');
  await page.getByRole('radio', { name: 'New patient' }).check();
  await fillNewPatient(page, { first: 'Jose', last: 'Pena', dob: '03/14/1961' });
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.getByRole('button', { name: 'No, register a new patient' }).click();
  await saveCard(page);
  expect(count('patients')).toBe(2);
});

// Truthful status (issue 17): the Sync screen says when this desk last heard from the practice and whether it is behind.
test('the Sync screen shows the practice: up to date, last heard', async ({ desk }) => {
  const { page } = desk;
  await openScreen(page, 'Sync');
  const practice = page.getByRole('region', { name: 'The practice' });
  await expect(practice.getByTestId('practice-standing')).toContainText('Up to date', { timeout: 15_000 });
  await expect(practice).toContainText(/Last heard from the practice: \d{1,2}:\d{2}/);
  await desk.shot('sync-practice');
});
