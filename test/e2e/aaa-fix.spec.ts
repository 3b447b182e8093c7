import { choosePayer, fillNewPatient, memberIdField, openScreen, runCheck, saveCard } from './desk-actions';
import { expect, test } from './fixtures';

// (c) An AAA 72 member id → the fix hint → edit → re-run succeeds.
test('a rejected member id shows the fix, and one click re-runs with the corrected id', async ({ desk }) => {
  const { page } = desk;
  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'Maria', last: 'Garcia', dob: '03/14/1978' });
  await choosePayer(page, 'Aetna');
  // The sandbox rejects member ids starting AAA72 with AAA 72 (docs/sandbox.md).
  await memberIdField(page).fill('AAA72-001');
  await saveCard(page);
  await runCheck(page);

  const failure = page.getByTestId('check-failure');
  await expect(failure).toBeVisible({ timeout: 20_000 });
  await expect(failure).toContainText('The payer did not accept the member id.');
  await expect(failure).toContainText(/re-read the member id from the card/i);
  await expect(failure).toContainText('payer code 72');
  await desk.shot('aaa72-fix');

  const corrected = page.getByLabel('Member id, as printed on the card');
  await expect(corrected).toHaveValue('AAA72-001');
  await corrected.fill('W284619375');
  await page.getByRole('button', { name: 'Save the correction and run again' }).click();

  const summary = page.getByTestId('benefits-summary');
  await expect(summary).toBeVisible({ timeout: 20_000 });
  await expect(summary.getByTestId('plan-state')).toHaveText('Active');
  await expect(summary).toContainText('Member id W284619375');
  // The corrected card is the patient's newest; the rejected one is kept for the record.
  await expect(page.getByLabel('Card', { exact: true }).locator('option')).toHaveCount(2);
  await desk.shot('aaa72-rerun-success');
});
